#include <stdio.h>
#include <string.h>
char *tbl = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
void enc(unsigned char *in, int n, char *out) {
    int i, j = 0; unsigned v;
    for (i = 0; i < n; i += 3) {
        v = in[i] << 16 | (i + 1 < n ? in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
        out[j++] = tbl[v >> 18 & 63]; out[j++] = tbl[v >> 12 & 63];
        out[j++] = i + 1 < n ? tbl[v >> 6 & 63] : '='; out[j++] = i + 2 < n ? tbl[v & 63] : '=';
    }
    out[j] = 0;
}
int main(void) { char *s[] = {"", "f", "fo", "foo", "foobar", "Many hands make light work."}; char out[64]; int i; for (i = 0; i < 6; i++) { enc((unsigned char *)s[i], strlen(s[i]), out); printf("'%s' -> %s\n", s[i], out); } return 0; }
