#include <stdio.h>
#include <math.h>
int main(void) {
    volatile double a = 1.0, b = 3.0;
    double vals[] = {0.1, -2.5, 1e300, 1e-300, 3.0, -0.0, 123456.789, 2.5, 3.5, -2.5};
    printf("%.17g %.17g %.17g %.17g\n", a / b, a - b / 7, a * b * 1e-3, sqrt(b));
    for (int i = 0; i < 10; i++) {
        double x = vals[i];
        printf("%d: %.17g %.17g %.17g %.17g %.17g %.17g %ld %lld\n", i, x * x, x / 3, floor(x), ceil(x), trunc(x),
               round(x), lrint(x > 1e18 || x < -1e18 ? 0 : x), (long long)(x > 9e18 || x < -9e18 ? 0 : x));
    }
    float f = 1.0f / 3.0f, g = 16777217.0f;
    printf("%.9g %.9g %.9g %.9g\n", f, g, f * 3.0f, (double)f - 1.0 / 3.0);
    printf("fma %.17g fmin %g fmax %g fabs %g copysign %g\n", fma(0.1, 10.0, -1.0), fmin(2, -3), fmax(2, -3), fabs(-4.5), copysign(3, -0.0));
    printf("inf %g nan? %d %d\n", 1.0 / (a - 1.0), isnan(sqrt(-a)), isinf(-1.0 / (a - 1.0)));
    printf("cmp %d %d %d\n", a < b, a == 1.0, (0.0 / (a - 1.0)) != (0.0 / (a - 1.0)));
    double sum = 0;
    for (int i = 1; i <= 100000; i++) sum += 1.0 / ((double)i * i);
    printf("basel %.15f\n", sum);
    float fs = 0; for (int i = 1; i <= 1000; i++) fs += 1.0f / i;
    printf("harmonic float %.7f\n", fs);
    unsigned u = (unsigned)3.99; int n = (int)-3.99; long long L = (long long)1e18;
    printf("conv %u %d %lld %.1f %.1f\n", u, n, L, (double)(1ULL << 63), (double)-9007199254740993LL);
    return 0;
}
