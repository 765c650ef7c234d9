#include <stdio.h>
union conv { unsigned long u; long s; unsigned int w[2]; unsigned char b[8]; };
int main(void) {
    union conv c; int i;
    c.s = -2;
    printf("%lu %x %x\n", c.u, c.w[0], c.w[1]);
    for (i = 0; i < 8; i++) c.b[i] = i * 17;
    printf("%lx %ld\n", c.u, c.s);
    return 0;
}
