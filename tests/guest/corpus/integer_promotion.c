#include <stdio.h>
int main(void) {
    unsigned char a = 200, b = 100; signed char c = -100; unsigned short us = 65535; unsigned u = 1; int i = -1;
    printf("%d %d %d\n", a + b, a * b, c * 2);
    printf("%d %d\n", us + 1, (unsigned short)(us + 1));
    printf("%d %d\n", i < u, i < (int)u);
    printf("%lu\n", (unsigned long)(i + u));
    printf("%ld %lu\n", -1L < 1U ? 1L : 0L, sizeof(a + b));
    printf("%d\n", (a << 4) >> 4);
    return 0;
}
