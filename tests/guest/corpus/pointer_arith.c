#include <stdio.h>
int main(void) {
    int a[10], *p, *q, i; long la[4]; char *c; short s[5];
    for (i = 0; i < 10; i++) a[i] = i * i;
    p = a; q = &a[9];
    printf("%d %d %d\n", (int)(q - p), *(p + 3), p[4]);
    p += 2; printf("%d\n", *p++); printf("%d\n", *p); printf("%d\n", *--p);
    printf("%d\n", (int)((char *)q - (char *)a));
    printf("%d %d\n", (int)(&la[3] - &la[0]), (int)((char *)&la[3] - (char *)&la[0]));
    c = (char *)s; printf("%d\n", (int)((short *)(c + 4) - s));
    printf("%d\n", 3[a]);
    printf("%d\n", p > a && p < q);
    return 0;
}
