#include <stdio.h>
#include <time.h>
#include <stdlib.h>
int main(void) { setenv("TZ", "UTC", 1); tzset(); time_t ts[] = {0, 1234567890, 951782400, 2147483647, 4102444800LL}; char buf[128];
  for (int i = 0; i < 5; i++) { struct tm tm; gmtime_r(&ts[i], &tm); strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a %b %j %U %w", &tm); printf("%lld %s yday=%d\n", (long long)ts[i], buf, tm.tm_yday);
    time_t back = mktime(&tm); printf("  mktime %lld\n", (long long)back); }
  struct tm t = {0}; t.tm_year = 124; t.tm_mon = 1; t.tm_mday = 29; t.tm_hour = 12; printf("leap %lld\n", (long long)timegm(&t)); return 0; }
