#include <stdio.h>
int main(void) {
    int a[] = {7, -7, 7, -7, 0, 100}, b[] = {2, 2, -2, -2, 5, -7}, i;
    for (i = 0; i < 6; i++) printf("%d/%d=%d %d%%%d=%d\n", a[i], b[i], a[i] / b[i], a[i], b[i], a[i] % b[i]);
    printf("%u %u\n", 4294967295u / 7u, 4294967295u % 7u);
    printf("%ld %ld\n", -9000000000L / 7, -9000000000L % 7);
    return 0;
}
