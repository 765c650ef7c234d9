#include <stdio.h>
int steps(unsigned long n) { int s = 0; while (n != 1) { n = n % 2 ? 3 * n + 1 : n / 2; s++; } return s; }
int main(void) {
    int best = 0, arg = 0, i, s;
    for (i = 1; i < 3000; i++) { s = steps(i); if (s > best) { best = s; arg = i; } }
    printf("longest below 3000: %d (%d steps)\n", arg, best);
    return 0;
}
