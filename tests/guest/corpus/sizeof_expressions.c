#include <stdio.h>
struct s { char c[3]; short h; };
int main(void) {
    int x = 5; long arr[3][4]; char *p = "str"; struct s v;
    printf("%d %d %d %d\n", (int)sizeof x, (int)sizeof(x + 1L), (int)sizeof arr, (int)sizeof arr[1]);
    printf("%d %d %d %d\n", (int)sizeof p, (int)sizeof *p, (int)sizeof "str", (int)sizeof v);
    printf("%d %d\n", (int)sizeof(v.c), x);
    return 0;
}
