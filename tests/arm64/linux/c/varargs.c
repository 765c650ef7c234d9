#include <stdio.h>
#include <stdarg.h>
static double avg(int n, ...) { va_list ap; va_start(ap, n); double s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, double); va_end(ap); return s / n; }
static long mix(const char *fmt, ...) { va_list ap, ap2; va_start(ap, fmt); va_copy(ap2, ap); long r = 0; for (const char *p = fmt; *p; p++) { if (*p == 'i') r += va_arg(ap, int); else if (*p == 'l') r += va_arg(ap, long); else if (*p == 'd') r += (long)(va_arg(ap, double) * 10); else if (*p == 's') r += (long)sizeof(va_arg(ap, char *)); }
  long first = va_arg(ap2, int); va_end(ap2); va_end(ap); return r * 1000 + first; }
static void logf_(const char *fmt, ...) { char buf[128]; va_list ap; va_start(ap, fmt); vsnprintf(buf, sizeof buf, fmt, ap); va_end(ap); printf("LOG: %s\n", buf); }
int main(void) { printf("%.4f\n", avg(5, 1.0, 2.0, 3.5, 4.25, -1.0)); printf("%ld\n", mix("ildsiiiiiiiil", 3, 4L, 2.5, "x", 1, 2, 3, 4, 5, 6, 7, 8, 99L));
  logf_("%s=%d (%.2f) %c%c", "answer", 42, 0.5, 'o', 'k'); return 0; }
