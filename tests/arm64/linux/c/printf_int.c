#include <stdio.h>
#include <stdint.h>
#include <stddef.h>
int main(void) {
    int n = 0;
    printf("[%d] [%i] [%5d] [%-5d] [%05d] [%+d] [% d] [%.3d]%n\n", 42, -42, 42, 42, 42, 42, 42, 7, &n);
    printf("n=%d\n", n);
    printf("[%u] [%x] [%X] [%#x] [%o] [%#o] [%c] [%%]\n", 4000000000u, 0xbeef, 0xbeef, 255, 8, 8, 'Z');
    printf("[%hhd] [%hd] [%ld] [%lld] [%zu] [%jd] [%td]\n", (char)300, (short)70000, -1234567890123L, -9223372036854775807LL - 1, (size_t)123, (intmax_t)-5, (ptrdiff_t)-9);
    printf("[%s] [%10s] [%-10s] [%.2s] [%*d] [%-*d] [%.*s]\n", "str", "right", "left", "trunc", 6, 1, 6, 2, 3, "abcdef");
    printf("[%p] [%p]\n", (void *)0x1234, (void *)0);
    printf("[%llx] [%#llo] [%hhu] [%hx]\n", 0xfedcba9876543210ULL, 0777ULL, (unsigned char)255, (unsigned short)65535);
    char buf[64]; int r = snprintf(buf, 8, "%s-%d", "abcdef", 12345); printf("%d [%s]\n", r, buf);
    printf("%5.1s|%-3c|%3c|\n", "xyz", 'a', 'b');
    return 0;
}
