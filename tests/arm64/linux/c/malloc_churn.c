#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    enum { N = 512 }; char *p[N] = {0}; size_t sz[N] = {0}; unsigned s = 7; unsigned long check = 0;
    for (int round = 0; round < 3000; round++) {
        s = s * 1664525 + 1013904223; int i = (s >> 10) % N;
        if (p[i]) {
            for (size_t k = 0; k < sz[i]; k += 97) check += (unsigned char)p[i][k] ^ (unsigned)(i + k);
            if (s & 0x100) { free(p[i]); p[i] = 0; continue; }
            size_t n = (s >> 16) % 3000 + 1; p[i] = realloc(p[i], n); if (n > sz[i]) memset(p[i] + sz[i], (int)(i + sz[i]) & 0xff, n - sz[i]);
            for (size_t k = sz[i]; k < n; k++) p[i][k] = (char)(i + k); sz[i] = n;
        } else {
            size_t n = (s >> 16) % ((s & 0x1000) ? 40000 : 2000) + 1;
            p[i] = (s & 0x20) ? calloc(n, 1) : malloc(n);
            for (size_t k = 0; k < n; k++) p[i][k] = (char)(i + k); sz[i] = n;
        }
    }
    for (int i = 0; i < N; i++) free(p[i]);
    printf("check %lu\n", check);
    return 0;
}
