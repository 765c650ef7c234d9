#include <stdio.h>
int x = 1;
int main(void) {
    printf("%d ", x);
    { int x = 2; printf("%d ", x); { int x = 3; printf("%d ", x); } printf("%d ", x); }
    { struct x { int y; } s; s.y = 9; printf("%d ", s.y + x); }
    printf("%d\n", x);
    return 0;
}
