#include <stdio.h>
int main(void) {
    long l = 0x123456789L; int i = -1; unsigned u = 3000000000u; char *p; long addr;
    printf("%d %d %d\n", (int)l, (short)l, (signed char)l);
    printf("%u %lu %ld\n", (unsigned)i, (unsigned long)i, (long)u);
    printf("%d %ld\n", (int)u, (long)(int)u);
    p = (char *)0 + 16; addr = (long)p; printf("%ld\n", addr);
    printf("%d\n", (unsigned char)(i * 2));
    printf("%d\n", (int)(unsigned short)-2);
    return 0;
}
