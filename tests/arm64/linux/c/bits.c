#include <stdio.h>
#include <stdint.h>
static uint64_t rev(uint64_t x) { uint64_t r = 0; for (int i = 0; i < 64; i++) { r = (r << 1) | (x & 1); x >>= 1; } return r; }
int main(void) {
    uint64_t v[] = {0, 1, 0x80000000ULL, 0xdeadbeefcafebabeULL, 0xffffffffffffffffULL, 0x0000f0f000000010ULL};
    for (int i = 0; i < 6; i++) {
        uint64_t x = v[i];
        printf("%016llx pc=%d clz=%d ctz=%d par=%d bswap=%016llx rev=%016llx rotl=%016llx b32=%08x\n",
               (unsigned long long)x, __builtin_popcountll(x), x ? __builtin_clzll(x) : 64, x ? __builtin_ctzll(x) : 64,
               __builtin_parityll(x), (unsigned long long)__builtin_bswap64(x), (unsigned long long)rev(x),
               (unsigned long long)((x << 13) | (x >> 51)), __builtin_bswap32((uint32_t)x));
    }
    struct { unsigned a : 3, b : 5, c : 12; int d : 7; } bf = {5, 17, 3000, -20};
    printf("bf %u %u %u %d\n", bf.a, bf.b, bf.c, bf.d);
    uint32_t m = 0; for (int i = 0; i < 32; i += 3) m |= 1u << i;
    printf("mask %08x %08x %08x\n", m, m & -m, m & (m - 1));
    int32_t n = -12345; printf("sar %d %d %u\n", n >> 3, n / 8, (uint32_t)n >> 3);
    return 0;
}
