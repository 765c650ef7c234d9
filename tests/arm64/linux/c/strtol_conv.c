#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
int main(void) { const char *s[] = {"123", "-456", "0x1f", "0777", "  +99xyz", "99999999999999999999", "", "12.5e3", "-0.000125", "inf", "nan", "1e400", "0x1.8p3"};
  for (int i = 0; i < 13; i++) { char *end; errno = 0; long v = strtol(s[i], &end, 0); int e1 = errno; errno = 0; double d = strtod(s[i], &end);
    printf("[%s] strtol=%ld e=%d strtod=%.10g rest=[%s] e=%d\n", s[i], v, e1 == ERANGE, d, end, errno == ERANGE); }
  printf("%lu %llu %d %ld %lld\n", strtoul("4294967296", 0, 10), strtoull("ffffffffffffffff", 0, 16), atoi("-17abc"), atol("123456789012"), strtoll("-9223372036854775808", 0, 10));
  int a, b; char w[16]; float f; int n = sscanf("42 -7 word 2.5", "%d %d %15s %f", &a, &b, w, &f); printf("sscanf %d: %d %d %s %.2f\n", n, a, b, w, f);
  unsigned x; n = sscanf("ff:10", "%x:%o", &x, &a); printf("%d %u %d\n", n, x, a); return 0; }
