#include <stdio.h>
int digit_sum(unsigned long n) { int s = 0; do s += n % 10; while (n /= 10); return s; }
int reverse_num(int n) { int r = 0; while (n) { r = r * 10 + n % 10; n /= 10; } return r; }
int main(void) { printf("%d %d %d %d\n", digit_sum(0), digit_sum(18446744073709551615UL), reverse_num(12345), reverse_num(-907)); return 0; }
