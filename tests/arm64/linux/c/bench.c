/* CPU-bound benchmark: integer hashing, a sieve, FP kernel and sorting. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
static int cmp(const void *a, const void *b) { uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b; return (x > y) - (x < y); }
int main(int argc, char **argv) { int scale = argc > 1 ? atoi(argv[1]) : 10; uint64_t h = 1469598103934665603ULL; double acc = 0;
  for (int round = 0; round < scale; round++) {
    for (uint32_t i = 0; i < 400000; i++) { h ^= i * 2654435761u; h *= 1099511628211ULL; h ^= h >> 29; }
    static char comp[200001]; for (int i = 0; i <= 200000; i++) comp[i] = 0; int primes = 0; for (int i = 2; i <= 200000; i++) if (!comp[i]) { primes++; for (int j = 2 * i; j <= 200000; j += i) comp[j] = 1; }
    for (int i = 1; i < 100000; i++) acc += 1.0 / ((double)i * i + round);
    static uint32_t arr[20000]; uint32_t s = (uint32_t)h; for (int i = 0; i < 20000; i++) { s = s * 1664525 + 1013904223; arr[i] = s; } qsort(arr, 20000, 4, cmp);
    h += primes + arr[10000]; }
  printf("%016llx %.12f\n", (unsigned long long)h, acc); return 0; }
