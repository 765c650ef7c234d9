#include <stdio.h>
int main(void) {
    printf("[%d] [%5d] [%-5d] [%05d] [%+d] [% d]\n", 42, 42, 42, 42, 42, 42);
    printf("[%u] [%x] [%X] [%#x] [%o] [%#o]\n", 3000000000u, 48879, 48879, 255, 8, 8);
    printf("[%ld] [%lu] [%lx] [%li]\n", -9000000000L, 18000000000UL, 0xdeadbeefcafeL, 7L);
    printf("[%s] [%10s] [%-10s] [%.3s] [%c]\n", "str", "right", "left", "truncate", 'c');
    printf("[%.5d] [%8.3d] [%-8.3d] [%.0d]\n", 42, 7, -7, 0);
    printf("[%*d] [%-*d] [%%]\n", 6, 1, 6, 2);
    printf("[%d] [%d]\n", -2147483647 - 1, 2147483647);
    printf("[%ld]\n", -9223372036854775807L - 1);
    return 0;
}
