#include <stdio.h>
#include <string.h>
int main(void) {
    char buf[64], *p;
    strcpy(buf, "hello");
    strcat(buf, ", world");
    printf("%s (%d)\n", buf, (int)strlen(buf));
    printf("cmp %d %d %d\n", strcmp("abc", "abd") < 0, strcmp("b", "a") > 0, strcmp("x", "x"));
    printf("ncmp %d\n", strncmp("abcdef", "abcxyz", 3));
    p = strchr(buf, 'w'); printf("strchr: %s\n", p);
    p = strrchr(buf, 'o'); printf("strrchr: %s\n", p);
    p = strstr(buf, "lo, w"); printf("strstr: %s\n", p ? p : "none");
    printf("strstr none: %d\n", strstr(buf, "xyz") == 0);
    memset(buf, 'z', 3); buf[3] = 0; printf("memset: %s\n", buf);
    memmove(buf + 1, buf, 3); buf[4] = 0; printf("memmove: %s\n", buf);
    printf("memcmp %d\n", memcmp("abc", "abd", 3) < 0);
    return 0;
}
