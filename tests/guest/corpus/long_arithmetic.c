#include <stdio.h>
unsigned long mulmod(unsigned long a, unsigned long b, unsigned long m) { unsigned long r = 0; a %= m; while (b) { if (b & 1) { r += a; if (r >= m) r -= m; } a <<= 1; if (a >= m) a -= m; b >>= 1; } return r; }
unsigned long powmod(unsigned long b, unsigned long e, unsigned long m) { unsigned long r = 1; while (e) { if (e & 1) r = mulmod(r, b, m); b = mulmod(b, b, m); e >>= 1; } return r; }
int main(void) {
    printf("%lu\n", powmod(2, 1000000, 1000000007));
    printf("%lu\n", powmod(3, 12345678901UL, 998244353));
    printf("%lu\n", mulmod(0xffffffffffffUL, 0xfffffffffffUL, 0x7fffffffffffffffUL));
    return 0;
}
