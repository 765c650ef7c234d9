#include <stdio.h>
unsigned long gcd(unsigned long a, unsigned long b) { while (b) { unsigned long t = a % b; a = b; b = t; } return a; }
int main(void) {
    unsigned long a[] = {12, 18, 1071, 462, 17, 1000000007, 600851475143UL};
    int i, j;
    for (i = 0; i < 7; i++) for (j = i + 1; j < 7; j++)
        printf("gcd(%lu,%lu)=%lu lcm=%lu\n", a[i], a[j], gcd(a[i], a[j]), a[i] / gcd(a[i], a[j]) * a[j]);
    return 0;
}
