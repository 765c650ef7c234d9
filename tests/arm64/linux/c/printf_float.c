#include <stdio.h>
#include <math.h>
#include <float.h>
int main(void) {
    double v[] = {0.0, -0.0, 1.0, -1.5, 3.14159265358979, 1e-10, 1.5e300, 123456789.0, 0.1, 2.5, 0.000123456, 1.0/3.0, DBL_MAX, DBL_MIN, 5e-324, 1e21, 999999.5};
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++)
        printf("%f|%.2f|%e|%.3E|%g|%G|%.10g|%a|%A|%10.3f|%-12.4e|%+g\n", v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i]);
    printf("%f %f %f %e %g %a\n", INFINITY, -INFINITY, NAN, INFINITY, -NAN, INFINITY);
    printf("%.0f %.0f %.0f %.0f %#.0f %#g\n", 0.5, 1.5, 2.5, -0.5, 3.0, 1.0);
    printf("%Lf %Le %Lg\n", (long double)1 / 3, (long double)2e100, (long double)0.1);
    printf("%.20f\n%.30e\n", 0.1, 1.0 / 7);
    float f = 1.1f; printf("%f %.9g %a\n", f, f, f);
    return 0;
}
