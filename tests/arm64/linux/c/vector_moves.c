/* Vector copies, modified immediates, reciprocal estimates and steps,
   FCVTXN and SQRDMLAH/SQRDMLSH: gcc's vectorised loops (memset-like stores
   of MOVI/DUP constants, broadcasts of a scalar, lane extraction in
   reductions) and the NEON intrinsics of each form, from ordinary and
   special operands (zero, infinity, NaN, subnormals, negatives), printed
   as checksums and a few values. */
#include <arm_neon.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 1000
static uint8_t b8[N];
static uint16_t h16[N];
static int32_t s32[N];
static float f32[N];
static double f64[N];
static uint64_t sum;

static void mix(const void *p, int n) {
    const uint8_t *b = p;
    for (int i = 0; i < n; i++) sum = sum * 1099511628211ULL + b[i];
}

#define MIX(v) do { __typeof__(v) t_ = (v); mix(&t_, sizeof t_); } while (0)

__attribute__((noinline)) static void loops(int k, float x) {
    for (int i = 0; i < N; i++) b8[i] = 0x5A;                      /* movi .16b, dup */
    mix(b8, N);
    for (int i = 0; i < N; i++) h16[i] = (uint16_t)(0xFF00 | k);   /* dup from w */
    mix(h16, sizeof h16);
    for (int i = 0; i < N; i++) s32[i] = ~0x3F00;                  /* mvni, lsl #8 */
    mix(s32, sizeof s32);
    for (int i = 0; i < N; i++) s32[i] |= 0x00450000;              /* orr (vector, immediate) */
    mix(s32, sizeof s32);
    for (int i = 0; i < N; i++) s32[i] &= ~0x00000C00;             /* bic (vector, immediate) */
    mix(s32, sizeof s32);
    for (int i = 0; i < N; i++) f32[i] = x * (float)i + 0.5f;      /* dup v.4s, v.s[0]; fmov #0.5 */
    mix(f32, sizeof f32);
    int32_t total = 0;
    for (int i = 0; i < N; i++) total += s32[i] ^ i;               /* addv, then umov/fmov to w */
    printf("total %d\n", total);
}

static const float fspecial[] = {0.0f, -0.0f, 1.0f, -1.0f, 3.0f, 0.25f, INFINITY, -INFINITY, NAN, -NAN,
                                  1e-40f, -1e-45f, 1.17549435e-38f, 3.4e38f, 2.0e-39f, 7.0e37f, 123.456f, -0.1f};
static const double dspecial[] = {0.0, -0.0, 1.0, -2.5, INFINITY, -INFINITY, NAN, 4.9e-324, -2.2e-308,
                                  1.7e308, 1e-300, 3.4028235677973366e38, 1.0000001, -7.7e-39, 1e39, 0.1};

__attribute__((target("arch=armv8.1-a")))
static void rdm(int16x8_t a, int16x8_t b, int16x8_t c, int32x4_t p, int32x4_t q, int32x4_t r) {
    MIX(vqrdmlahq_s16(a, b, c)); MIX(vqrdmlshq_s16(a, b, c));
    MIX(vqrdmlahq_s32(p, q, r)); MIX(vqrdmlshq_s32(p, q, r));
    MIX(vqrdmlah_s16(vget_low_s16(a), vget_low_s16(b), vget_high_s16(c)));
    MIX(vqrdmlahq_laneq_s16(a, b, c, 5)); MIX(vqrdmlshq_laneq_s32(p, q, r, 3));
    MIX(vqrdmlahh_s16(vgetq_lane_s16(a, 1), vgetq_lane_s16(b, 2), vgetq_lane_s16(c, 3)));
    MIX(vqrdmlshs_s32(vgetq_lane_s32(p, 0), vgetq_lane_s32(q, 1), vgetq_lane_s32(r, 2)));
}

__attribute__((noinline)) static void intrinsics(int k) {
    uint8x16_t a = vld1q_u8(b8 + k);
    int32x4_t s = vld1q_s32(s32 + k);
    MIX(vdupq_n_u8(b8[k])); MIX(vdupq_laneq_u16(vreinterpretq_u16_u8(a), 5)); MIX(vdup_n_s32(s32[k]));
    MIX(vdupq_n_u64(0x0123456789ABCDEFULL + k)); MIX(vdupq_laneq_s32(s, 3));
    MIX(vgetq_lane_u8(a, 15)); MIX(vgetq_lane_s16(vreinterpretq_s16_u8(a), 3));
    MIX((int64_t)vgetq_lane_s8(vreinterpretq_s8_u8(a), 7)); MIX((int64_t)vgetq_lane_s32(s, 2));
    MIX(vgetq_lane_u64(vreinterpretq_u64_s32(s), 1));
    MIX(vsetq_lane_u8(0x77, a, 9)); MIX(vsetq_lane_s32(k, s, 1));
    MIX(vcopyq_laneq_s32(s, 0, s, 3)); MIX(vcopyq_laneq_u8(a, 2, a, 14));
    MIX(vmovq_n_f32(-1.25f)); MIX(vmovq_n_f64(0.375)); MIX(vmovq_n_u16(0x1200)); MIX(vmov_n_u64(0xFF00FF0000FF00FFULL));
    MIX(vorrq_s32(s, vdupq_n_s32(0x7F00))); MIX(vbicq_s32(s, vdupq_n_s32(0x00FF)));
    for (unsigned i = 0; i + 4 <= sizeof fspecial / sizeof fspecial[0]; i++) {
        float32x4_t x = vld1q_f32(fspecial + i), y = vld1q_f32(fspecial + (i * 7 + 3) % 14);
        MIX(vrecpeq_f32(x)); MIX(vrsqrteq_f32(x)); MIX(vrecpsq_f32(x, y)); MIX(vrsqrtsq_f32(x, y));
        MIX(vrecpxs_f32(vgetq_lane_f32(x, 0))); MIX(vrecpes_f32(vgetq_lane_f32(x, 1)));
        MIX(vrsqrtes_f32(vgetq_lane_f32(x, 2))); MIX(vrecpss_f32(vgetq_lane_f32(x, 3), vgetq_lane_f32(y, 0)));
        MIX(vrecpeq_u32(vreinterpretq_u32_f32(x))); MIX(vrsqrteq_u32(vreinterpretq_u32_f32(y)));
    }
    for (unsigned i = 0; i + 2 <= sizeof dspecial / sizeof dspecial[0]; i++) {
        float64x2_t x = vld1q_f64(dspecial + i), y = vld1q_f64(dspecial + (i * 5 + 1) % 14);
        MIX(vrecpeq_f64(x)); MIX(vrsqrteq_f64(x)); MIX(vrecpsq_f64(x, y)); MIX(vrsqrtsq_f64(x, y));
        MIX(vrecpxd_f64(vgetq_lane_f64(x, 1))); MIX(vrsqrtsd_f64(vgetq_lane_f64(x, 0), vgetq_lane_f64(y, 1)));
        MIX(vcvtx_f32_f64(x)); MIX(vcvtx_high_f32_f64(vdup_n_f32(2.0f), y)); MIX(vcvtxd_f32_f64(vgetq_lane_f64(y, 0)));
    }
    int16x8_t h = vreinterpretq_s16_u8(a);
    int16x8_t mn = vdupq_n_s16(INT16_MIN);
    rdm(h, mn, mn, s, vdupq_n_s32(INT32_MIN), vdupq_n_s32(INT32_MIN));
    rdm(vreinterpretq_s16_s32(s), h, vrev64q_s16(h), vdupq_n_s32(k * 12345), s, vrev64q_s32(s));
}

/* Newton-Raphson 1/x and 1/sqrt(x) the way NEON code computes them. */
__attribute__((noinline)) static void newton(void) {
    for (int i = 0; i < 64; i += 4) {
        float32x4_t x = vld1q_f32(f32 + i);
        float32x4_t r = vrecpeq_f32(x);
        r = vmulq_f32(r, vrecpsq_f32(x, r));
        r = vmulq_f32(r, vrecpsq_f32(x, r));
        float32x4_t s = vrsqrteq_f32(x);
        s = vmulq_f32(s, vrsqrtsq_f32(vmulq_f32(x, s), s));
        printf("%.7g %.7g\n", vgetq_lane_f32(r, 1), vgetq_lane_f32(s, 2));
    }
}

int main(void) {
    for (int i = 0; i < N; i++) {
        b8[i] = (uint8_t)(i * 37 + 11);
        s32[i] = (int32_t)(i * 2654435761u);
        f64[i] = i * 0.75 - 100.0;
    }
    loops(3, 1.5f);
    for (int k = 0; k < 64; k += 7) intrinsics(k);
    newton();
    printf("%016llx\n", (unsigned long long)sum);
    return 0;
}
