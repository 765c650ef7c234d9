#include <stdio.h>
#include <stdlib.h>
#include <string.h>
char *join(char **parts, int n, char *sep) {
    int i, len = 1; char *out;
    for (i = 0; i < n; i++) len += strlen(parts[i]) + strlen(sep);
    out = malloc(len); out[0] = 0;
    for (i = 0; i < n; i++) { if (i) strcat(out, sep); strcat(out, parts[i]); }
    return out;
}
int main(void) {
    char *parts[] = {"alpha", "beta", "gamma", "delta"};
    char *s = join(parts, 4, ", ");
    printf("%s (%d)\n", s, (int)strlen(s));
    free(s);
    s = join(parts, 1, "-"); printf("%s\n", s);
    return 0;
}
