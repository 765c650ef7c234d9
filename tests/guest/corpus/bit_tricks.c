#include <stdio.h>
int popcount(unsigned long x) { int n = 0; while (x) { x &= x - 1; n++; } return n; }
unsigned rev32(unsigned x) { int i; unsigned r = 0; for (i = 0; i < 32; i++) { r = (r << 1) | (x & 1); x >>= 1; } return r; }
int clz64(unsigned long x) { int n = 0; if (!x) return 64; while (!(x & (1UL << 63))) { x <<= 1; n++; } return n; }
int main(void) {
    unsigned long vals[] = {0, 1, 0xff, 0x8000000000000000UL, 0x123456789abcdefUL, ~0UL};
    int i;
    for (i = 0; i < 6; i++) printf("%lx pop=%d clz=%d rev=%x low=%lx\n", vals[i], popcount(vals[i]), clz64(vals[i]), rev32((unsigned)vals[i]), vals[i] & -vals[i]);
    printf("%d %d\n", (-8) >> 1, (int)((unsigned)-8 >> 1));
    return 0;
}
