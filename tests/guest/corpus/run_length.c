#include <stdio.h>
int main(void) {
    char *s = "aaabccddddde", out[64]; int i = 0, j = 0, n;
    while (s[i]) { n = 1; while (s[i + n] == s[i]) n++; j += sprintf(out + j, "%d%c", n, s[i]); i += n; }
    printf("%s -> %s\n", s, out);
    return 0;
}
