#include <stdio.h>
unsigned long state = 0x9E3779B97F4A7C15UL;
unsigned long next(void) { unsigned long x = state; x ^= x << 13; x ^= x >> 7; x ^= x << 17; return state = x; }
int main(void) { int i, hist[10] = {0}; for (i = 0; i < 10000; i++) hist[next() % 10]++; for (i = 0; i < 10; i++) printf("%d ", hist[i]); printf("\n%lx\n", next()); return 0; }
