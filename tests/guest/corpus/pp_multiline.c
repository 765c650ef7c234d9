#include <stdio.h>
#define LONG_MACRO(a, b) \
    ((a) * 100 + \
     (b))
#define DECLARE(name, value) \
    int name = value;
DECLARE(first, 11)
DECLARE(second, LONG_MACRO(2, 3))
int main(void) {
    printf("%d %d %d\n", first, second, LONG_MACRO(first,
                                                   second));
    return 0;
}
