#include <stdio.h>
#include <math.h>
int main(void) { double xs[] = {0.5, 1.0, 2.0, 10.0, -3.7, 100.25};
  for (int i = 0; i < 6; i++) { double x = xs[i];
    printf("%g: sin %.15g cos %.15g tan %.15g exp %.15g log %.15g pow %.15g atan2 %.15g\n", x, sin(x), cos(x), tan(x), exp(x / 4), log(fabs(x)), pow(fabs(x), 1.5), atan2(x, 1.5));
    printf("   sinh %.15g tanh %.15g asin %.15g cbrt %.15g hypot %.15g log10 %.15g log2 %.15g expm1 %.15g\n", sinh(x / 10), tanh(x), asin(fmod(x, 1.0)), cbrt(x), hypot(x, 3), log10(fabs(x)), log2(fabs(x)), expm1(x / 100)); }
  float f = 0.7f; printf("float %.8g %.8g %.8g %.8g\n", sinf(f), expf(f), logf(f), powf(f, 2.5f));
  int e; double m = frexp(1234.5, &e); printf("frexp %g %d ldexp %g modf ", m, e, ldexp(0.75, 5)); double ip; printf("%g %g\n", modf(-3.25, &ip), ip);
  printf("remainder %g fmod %g nextafter %.17g\n", remainder(10.5, 3), fmod(-10.5, 3), nextafter(1.0, 2.0)); return 0; }
