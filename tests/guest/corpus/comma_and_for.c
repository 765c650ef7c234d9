#include <stdio.h>
int main(void) {
    int i, j, x;
    for (i = 0, j = 10; i < j; i++, j--) printf("%d,%d ", i, j);
    printf("\n");
    x = (i = 3, j = 4, i * j);
    printf("%d\n", x);
    for (i = 0; ; i++) { if (i > 4) break; }
    printf("%d\n", i);
    i = 0; do i += 3; while (i < 10); printf("%d\n", i);
    i = 100; while (i --> 95) printf("%d ", i);
    printf("\n");
    for (int k = 0; k < 3; k++) printf("k%d ", k);
    printf("\n");
    return 0;
}
