#include <stdio.h>
void set(int **pp, int *target) { *pp = target; }
int main(void) {
    int x = 1, y = 2, *p = &x, **pp = &p, ***ppp = &pp;
    printf("%d\n", ***ppp);
    set(pp, &y);
    printf("%d %d\n", *p, **pp);
    **pp = 20;
    printf("y=%d\n", y);
    char *words[] = {"alpha", "beta", "gamma"};
    char **w = words;
    printf("%s %c %s\n", *(w + 1), **w, w[2] + 2);
    return 0;
}
