#include <stdio.h>
#include <string.h>
char sieve[10001];
int main(void) {
    int i, j, count = 0;
    memset(sieve, 1, sizeof(sieve));
    sieve[0] = sieve[1] = 0;
    for (i = 2; i * i <= 10000; i++) if (sieve[i]) for (j = i * i; j <= 10000; j += i) sieve[j] = 0;
    for (i = 0; i <= 10000; i++) if (sieve[i]) { count++; if (i > 9900) printf("%d ", i); }
    printf("\n%d primes below 10001\n", count);
    return 0;
}
