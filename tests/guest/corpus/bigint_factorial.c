#include <stdio.h>
int main(void) {
    int digits[200] = {1}, n = 1, i, k, carry;
    for (k = 2; k <= 100; k++) { carry = 0; for (i = 0; i < n; i++) { int v = digits[i] * k + carry; digits[i] = v % 10; carry = v / 10; } while (carry) { digits[n++] = carry % 10; carry /= 10; } }
    printf("100! has %d digits: ", n);
    for (i = n - 1; i >= 0; i--) printf("%d", digits[i]);
    printf("\n");
    return 0;
}
