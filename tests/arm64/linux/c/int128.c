#include <stdio.h>
typedef unsigned __int128 u128;
typedef __int128 i128;
static void pr(u128 v) { char buf[64]; int i = 63; buf[i] = 0; do { buf[--i] = '0' + (int)(v % 10); v /= 10; } while (v); printf("%s\n", buf + i); }
static void pri(i128 v) { if (v < 0) { putchar('-'); pr((u128)(-v)); } else pr((u128)v); }
int main(void) {
    u128 f = 1; for (int i = 1; i <= 34; i++) { f *= i; } pr(f);
    u128 a = ((u128)0x0123456789abcdefULL << 64) | 0xfedcba9876543210ULL;
    u128 b = 0xffffffffffULL;
    pr(a / b); pr(a % b); pr(a * 3 + b); pr(a >> 7); pr(a << 9); pr(a ^ (a >> 64));
    i128 s = -(i128)a / 12345; pri(s); pri(-(i128)a % 1000003);
    u128 x = 1; for (int i = 0; i < 100; i++) x = x * 6364136223846793005ULL + 1442695040888963407ULL; pr(x);
    printf("%d %d\n", a > b, (i128)-1 < (i128)0);
    return 0;
}
