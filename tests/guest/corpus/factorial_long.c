#include <stdio.h>
long fact(long n) { return n <= 1 ? 1 : n * fact(n - 1); }
int main(void) { long i; for (i = 0; i <= 25; i++) printf("%ld! = %ld\n", i, fact(i)); return 0; }
