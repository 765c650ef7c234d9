#include <stdio.h>
#include <string.h>
int main(void) { enum { N = 200000 }; static char comp[N + 1]; int count = 0; long sum = 0; int last = 0;
  for (int i = 2; i <= N; i++) { if (!comp[i]) { count++; sum += i; last = i; for (long j = (long)i * i; j <= N; j += i) comp[j] = 1; } }
  printf("primes<=%d: %d sum %ld last %d\n", N, count, sum, last);
  unsigned long long n = 600851475143ULL, f = 2, big = 0; while (n > 1) { if (n % f == 0) { n /= f; big = f; } else f++; } printf("largest factor %llu\n", big);
  int twins = 0; for (int i = 3; i + 2 <= N; i += 2) twins += !comp[i] && !comp[i + 2]; printf("twins %d\n", twins); return 0; }
