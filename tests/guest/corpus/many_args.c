#include <stdio.h>
long ten(long a, long b, long c, long d, long e, long f, long g, long h, long i, long j) { return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j; }
int mixed(char a, short b, int c, long d, unsigned char e, unsigned short f, unsigned g, unsigned long h, char *s) { return a + b + c + (int)d + e + f + g + (int)h + s[0]; }
int main(void) { printf("%ld\n", ten(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)); printf("%d\n", mixed(-1, -2, -3, -4, 250, 65000, 7, 8, "A")); printf("%d %d %d %d %d %d %d %d %d %d\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10); return 0; }
