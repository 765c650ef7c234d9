#include <stdio.h>
typedef unsigned long u64;
typedef int (*cmpfn)(int, int);
typedef struct { u64 lo, hi; } u128;
typedef int vec3[3];
int less(int a, int b) { return a < b; }
u128 mul64(u64 a, u64 b) {
    u128 r; u64 al = a & 0xffffffff, ah = a >> 32, bl = b & 0xffffffff, bh = b >> 32;
    u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    u64 mid = (ll >> 32) + (lh & 0xffffffff) + (hl & 0xffffffff);
    r.lo = (ll & 0xffffffff) | (mid << 32);
    r.hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    return r;
}
int main(void) {
    cmpfn f = less; vec3 v = {1, 2, 3}; u128 r = mul64(0xffffffffffffffffUL, 0xfffffffffffffffeUL);
    printf("%d %d %d\n", f(1, 2), v[2], (int)sizeof(vec3));
    printf("%lx %lx\n", r.hi, r.lo);
    return 0;
}
