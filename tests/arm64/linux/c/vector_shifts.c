/* Vector shifts by immediate, permutes, EXT and table lookups: gcc's
   auto-vectorised loops (shl/ushr/sshr/usra, uxtl/sxtl, xtn/uzp1, zip) and
   the NEON intrinsics of every form, printed as checksums of their results. */
#include <arm_neon.h>
#include <stdint.h>
#include <stdio.h>

#define N 1024
static uint8_t b8[N], o8[N];
static uint16_t h16[N], o16[N];
static int32_t s32[N], r32[N];
static uint64_t sum;

static void mix(const void *p, int n) {
    const uint8_t *b = p;
    for (int i = 0; i < n; i++) sum = sum * 1099511628211ULL + b[i];
}

#define MIX(v) do { __typeof__(v) t_ = (v); mix(&t_, sizeof t_); } while (0)

__attribute__((noinline)) static void loops(void) {
    for (int i = 0; i < N; i++) o8[i] = (uint8_t)(b8[i] << 3);
    mix(o8, N);
    for (int i = 0; i < N; i++) o16[i] = h16[i] >> 5;
    mix(o16, sizeof o16);
    for (int i = 0; i < N; i++) r32[i] = s32[i] >> 7;
    mix(r32, sizeof r32);
    for (int i = 0; i < N; i++) o16[i] += h16[i] >> 3;
    mix(o16, sizeof o16);
    for (int i = 0; i < N; i++) o16[i] = b8[i];                      /* uxtl */
    mix(o16, sizeof o16);
    for (int i = 0; i < N; i++) r32[i] = (int16_t)h16[i];            /* sxtl */
    mix(r32, sizeof r32);
    for (int i = 0; i < N; i++) o8[i] = (uint8_t)h16[i];             /* xtn / uzp1 */
    mix(o8, N);
    for (int i = 0; i < N / 2; i++) { o16[2 * i] = h16[i]; o16[2 * i + 1] = (uint16_t)s32[i]; }
    mix(o16, sizeof o16);
    for (int i = 0; i < N / 2; i++) o8[i] = (uint8_t)(b8[2 * i] + b8[2 * i + 1]);
    mix(o8, N / 2);
}

__attribute__((noinline)) static void intrinsics(int k) {
    uint8x16_t a = vld1q_u8(b8 + k), b = vld1q_u8(b8 + k + 16), c = vld1q_u8(b8 + k + 32);
    uint16x8_t h = vld1q_u16(h16 + k), g = vld1q_u16(h16 + k + 8);
    int32x4_t s = vld1q_s32(s32 + k), t = vld1q_s32(s32 + k + 4);
    int64x2_t d = vreinterpretq_s64_s32(s);
    MIX(vshlq_n_u8(a, 5)); MIX(vshrq_n_u8(a, 8)); MIX(vshrq_n_s16(vreinterpretq_s16_u16(h), 16));
    MIX(vshrq_n_s64(d, 63)); MIX(vshrq_n_u64(vreinterpretq_u64_s64(d), 64)); MIX(vshl_n_u16(vget_low_u16(h), 15));
    MIX(vsraq_n_s32(s, t, 9)); MIX(vsraq_n_u16(h, g, 16)); MIX(vrshrq_n_s32(s, 3)); MIX(vrshrq_n_u8(a, 8));
    MIX(vrsraq_n_s16(vreinterpretq_s16_u16(h), vreinterpretq_s16_u16(g), 4)); MIX(vrsraq_n_u64(vreinterpretq_u64_s64(d), vreinterpretq_u64_s32(t), 64));
    MIX(vsriq_n_u8(a, b, 3)); MIX(vsriq_n_u16(h, g, 16)); MIX(vsliq_n_u32(vreinterpretq_u32_s32(s), vreinterpretq_u32_s32(t), 31));
    MIX(vsli_n_u8(vget_low_u8(a), vget_low_u8(b), 0));
    MIX(vqshluq_n_s8(vreinterpretq_s8_u8(a), 3)); MIX(vqshlq_n_s16(vreinterpretq_s16_u16(h), 9)); MIX(vqshlq_n_u32(vreinterpretq_u32_s32(s), 1));
    MIX(vshrn_n_u16(h, 3)); MIX(vrshrn_n_u32(vreinterpretq_u32_s32(s), 16)); MIX(vqshrun_n_s16(vreinterpretq_s16_u16(h), 2));
    MIX(vqrshrun_n_s32(s, 5)); MIX(vqshrn_n_s64(d, 17)); MIX(vqshrn_n_u16(h, 1)); MIX(vqrshrn_n_s16(vreinterpretq_s16_u16(g), 4));
    MIX(vqrshrn_n_u32(vreinterpretq_u32_s32(t), 7)); MIX(vshrn_high_n_u16(vget_low_u8(a), g, 8));
    MIX(vshll_n_u8(vget_low_u8(a), 3)); MIX(vshll_high_n_s16(vreinterpretq_s16_u16(h), 15)); MIX(vmovl_s32(vget_low_s32(s)));
    MIX(vcvtq_n_f32_s32(s, 5)); MIX(vcvtq_n_f64_u64(vreinterpretq_u64_s64(d), 64)); MIX(vcvtq_n_s32_f32(vcvtq_n_f32_s32(t, 3), 2));
    MIX(vcvtq_n_u64_f64(vcvtq_n_f64_s64(d, 10), 12));
    MIX(vshrd_n_s64(vgetq_lane_s64(d, 0), 64)); MIX(vshld_n_u64(vgetq_lane_u64(vreinterpretq_u64_s64(d), 1), 63));
    MIX(vrshrd_n_s64(vgetq_lane_s64(d, 1), 3)); MIX(vsrad_n_u64(1, vgetq_lane_u64(vreinterpretq_u64_s64(d), 0), 12));
    MIX(vqshlb_n_u8(vgetq_lane_u8(a, 3), 4)); MIX(vqshlus_n_s32(vgetq_lane_s32(s, 2), 7));
    MIX(vqshrns_n_s32(vgetq_lane_s32(t, 1), 3)); MIX(vqrshrunh_n_s16(vgetq_lane_s16(vreinterpretq_s16_u16(h), 1), 2));
    MIX(vcvts_n_f32_s32(vgetq_lane_s32(s, 0), 9)); MIX(vcvtd_n_s64_f64(vgetq_lane_f64(vcvtq_n_f64_s64(d, 3), 1), 20));
    MIX(vuzp1q_u8(a, b)); MIX(vuzp2q_u16(h, g)); MIX(vuzp1_u32(vget_low_u32(vreinterpretq_u32_s32(s)), vget_high_u32(vreinterpretq_u32_s32(t))));
    MIX(vzip1q_u8(a, b)); MIX(vzip2q_u16(h, g)); MIX(vzip1q_s64(d, vreinterpretq_s64_s32(t))); MIX(vzip2_u8(vget_low_u8(a), vget_low_u8(c)));
    MIX(vtrn1q_u8(a, b)); MIX(vtrn2q_s32(s, t)); MIX(vtrn2_u16(vget_low_u16(h), vget_high_u16(g)));
    MIX(vextq_u8(a, b, 3)); MIX(vextq_u8(a, b, 11)); MIX(vext_u8(vget_low_u8(a), vget_low_u8(b), 7)); MIX(vextq_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b), 1));
    uint8x16_t idx = vandq_u8(c, vdupq_n_u8(63));
    MIX(vqtbl1q_u8(a, idx)); MIX(vqtbl2q_u8((uint8x16x2_t){{a, b}}, idx)); MIX(vqtbl3q_u8((uint8x16x3_t){{a, b, c}}, idx));
    MIX(vqtbl4q_u8((uint8x16x4_t){{a, b, c, a}}, idx)); MIX(vqtbx1q_u8(c, a, idx)); MIX(vqtbx2_u8(vget_low_u8(c), (uint8x16x2_t){{a, b}}, vget_low_u8(idx)));
    MIX(vqtbx4q_u8(b, (uint8x16x4_t){{a, b, c, a}}, c));
}

int main(void) {
    uint32_t x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 1103515245u + 12345u;
        b8[i] = (uint8_t)(x >> 16);
        h16[i] = (uint16_t)(x >> 8) ^ (i % 7 == 0 ? 0x8000 : 0);
        s32[i] = (int32_t)(x ^ (x << 13)) >> (i & 3);
    }
    loops();
    printf("loops %016llx\n", (unsigned long long)sum);
    for (int k = 0; k < 200; k += 7) intrinsics(k);
    printf("intrinsics %016llx\n", (unsigned long long)sum);
    return 0;
}
