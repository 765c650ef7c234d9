#include <stdio.h>
#include <stdint.h>
#include <limits.h>
static uint64_t s = 88172645463325252ULL;
static uint64_t rnd(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
int main(void) {
    uint64_t acc = 0;
    for (int i = 0; i < 2000; i++) {
        uint64_t a = rnd(), b = rnd() | 1;
        int64_t sa = (int64_t)a, sb = (int64_t)b;
        uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b | 1;
        int32_t sa32 = (int32_t)a32, sb32 = (int32_t)b32;
        acc = acc * 31 + a / b + a % b + (uint64_t)(sa / sb) + (uint64_t)(sa % sb);
        acc = acc * 31 + a32 / b32 + a32 % b32 + (uint32_t)(sa32 / sb32) + (uint32_t)(sa32 % sb32);
        acc ^= (a << (b & 63)) ^ (a >> (b & 63)) ^ (uint64_t)(sa >> (b & 63));
        acc += a * b + (uint64_t)a32 * b32 + (int64_t)sa32 * sb32;
        acc += (a > b) + (sa < sb) * 2 + (a32 >= b32) * 4 + (sa32 <= sb32) * 8;
        if (i % 400 == 0) printf("%d %llu %lld %u %d\n", i, (unsigned long long)acc, (long long)sa / 7, a32 % 1000, sa32 / 3);
    }
    printf("INT_MIN/-1 guarded: %d %d\n", INT_MIN / 2, -7 / 2);
    printf("mod: %d %d %d %d\n", 7 % 3, -7 % 3, 7 % -3, -7 % -3);
    printf("unsigned wrap: %u %llu\n", 0u - 1u, 0ULL - 5ULL);
    printf("acc=%016llx\n", (unsigned long long)acc);
    return 0;
}
