#include <stdio.h>
#include <stdlib.h>
int main(void) {
    char *end;
    printf("%d %d %d\n", atoi("123"), atoi("  -77xyz"), atoi("+5"));
    printf("%ld\n", strtol("ff", &end, 16));
    printf("%ld %s\n", strtol("0x1Ag", &end, 0), end);
    printf("%ld\n", strtol("0777", 0, 0));
    printf("%lu\n", strtoul("18446744073709551615", 0, 10));
    printf("%ld\n", strtol("-101", 0, 2));
    return 0;
}
