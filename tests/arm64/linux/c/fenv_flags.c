/* FPSR cumulative exception flags as fetestexcept sees them. */
#include <fenv.h>
#include <stdio.h>
#include <stdint.h>
#include <math.h>

static volatile double d0 = 0.0, d1 = 1.0, d3 = 3.0, dbig = 1e308, dtiny = 1e-308, dm1 = -1.0, dhalf = 2.5;
static volatile float f0 = 0.0f, f1 = 1.0f, f3 = 3.0f, fbig = 3e38f, ftiny = 1e-38f, fm1 = -1.0f;
static volatile int64_t i63 = (int64_t)1 << 62 | 1, i5 = 5;
static volatile uint64_t u64 = ~(uint64_t)0;
static volatile double sink;
static volatile float fsink;
static volatile long lsink;

static void show(const char *what) {
    int e = fetestexcept(FE_ALL_EXCEPT);
    printf("%-14s %s%s%s%s%s\n", what, e & FE_INVALID ? " invalid" : "", e & FE_DIVBYZERO ? " divbyzero" : "",
           e & FE_OVERFLOW ? " overflow" : "", e & FE_UNDERFLOW ? " underflow" : "", e & FE_INEXACT ? " inexact" : "");
    feclearexcept(FE_ALL_EXCEPT);
}

int main(void) {
    feclearexcept(FE_ALL_EXCEPT);
    show("none");
    sink = d1 + d3; show("exact add");
    sink = d1 / d3; show("d 1/3");
    fsink = f1 / f3; show("f 1/3");
    sink = d1 / d0; show("d 1/0");
    fsink = f1 / f0; show("f 1/0");
    sink = d0 / d0; show("d 0/0");
    fsink = f0 / f0; show("f 0/0");
    sink = sqrt(dm1); show("d sqrt(-1)");
    fsink = sqrtf(fm1); show("f sqrt(-1)");
    sink = sqrt(d3); show("d sqrt(3)");
    sink = dbig * dbig; show("d overflow");
    fsink = fbig * fbig; show("f overflow");
    sink = dtiny * dtiny; show("d underflow");
    fsink = ftiny * ftiny; show("f underflow");
    sink = dtiny / d3; show("d subnormal");
    sink = fma(d1, d3, dtiny); show("d fma inexact");
    sink = fma(d1, d3, d1); show("d fma exact");
    fsink = fmaf(f1, f3, ftiny); show("f fma inexact");
    sink = dbig - (-dbig); show("d add ovf");
    fsink = (float)dbig; show("d->f ovf");
    fsink = (float)(d1 / d3); show("d->f inexact");
    fsink = (float)dtiny; show("d->f underflow");
    sink = (double)i63; show("i64->d inexact");
    sink = (double)i5; show("i64->d exact");
    fsink = (float)u64; show("u64->f inexact");
    lsink = (long)dhalf; show("d->i64 inexact");
    lsink = (long)dbig; show("d->i64 invalid");
    lsink = (int)(d3 * 1e10); show("d->i32 invalid");
    lsink = (unsigned long)dm1; show("d->u64 invalid");
    lsink = lrint(dhalf); show("lrint 2.5");
    sink = rint(dhalf); show("rint 2.5");
    sink = nearbyint(dhalf); show("nearbyint 2.5");
    sink = d0 / d0; sink = sink + d1; show("qnan + 1");
    lsink = sink < d1; show("qnan < 1");
    lsink = isless(sink, d1); show("isless qnan");
    lsink = sink == d1; show("qnan == 1");
    feraiseexcept(FE_OVERFLOW | FE_INEXACT); show("feraise");
    return 0;
}
