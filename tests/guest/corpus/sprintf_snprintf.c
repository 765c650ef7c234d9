#include <stdio.h>
#include <string.h>
int main(void) {
    char buf[32]; int n;
    n = sprintf(buf, "%d-%s-%x", 12, "ab", 255);
    printf("%s %d\n", buf, n);
    n = snprintf(buf, 8, "%s", "0123456789");
    printf("%s %d %d\n", buf, n, (int)strlen(buf));
    n = snprintf(buf, sizeof buf, "%05d|%-4s|", 33, "x");
    printf("%s %d\n", buf, n);
    return 0;
}
