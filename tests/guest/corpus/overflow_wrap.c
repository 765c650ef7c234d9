#include <stdio.h>
int main(void) {
    int i = 2147483647; unsigned u = 0; long l = 9223372036854775807L; unsigned long ul = 0; short s = 32767; unsigned char uc = 250;
    i++; u--; l++; ul--; s++; uc += 10;
    printf("%d %u %ld %lu %d %d\n", i, u, l, ul, s, uc);
    printf("%d\n", 65536 * 65536);
    printf("%u\n", 4000000000u * 2u);
    printf("%d\n", -2147483647 - 1 - 1);
    return 0;
}
