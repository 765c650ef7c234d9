#include <stdio.h>
#include <limits.h>
int main(void) {
    printf("%d %d %u\n", INT_MAX, INT_MIN, UINT_MAX);
    printf("%ld %ld %lu\n", LONG_MAX, LONG_MIN, ULONG_MAX);
    printf("%d %d %d %d %d\n", CHAR_BIT, SCHAR_MIN, SCHAR_MAX, SHRT_MIN, USHRT_MAX);
    printf("%d\n", INT_MAX + 1 == INT_MIN);
    return 0;
}
