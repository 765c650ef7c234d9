#include <stdio.h>
#include <string.h>
#include <stdlib.h>
int main(void) { size_t n = 1 << 20; unsigned char *a = malloc(n + 64), *b = malloc(n + 64); unsigned long h = 0;
  for (size_t i = 0; i < n + 64; i++) a[i] = (unsigned char)(i * 2654435761u >> 13);
  for (int off = 0; off < 8; off++) { memcpy(b + off, a + (7 - off), n - 100); memset(b + off + 1000, off, 333); h = h * 131 + b[off + 500] + b[off + 1200] + b[n - 200];
    h += memcmp(a, b, n) < 0; memmove(b + 10, b, 5000); h = h * 7 + b[4000] + (strlen((char *)b + 20000) & 7); }
  memset(a, 0, n); size_t z = 0; for (size_t i = 0; i < n; i++) z += a[i]; printf("h %lu z %zu\n", h, z); free(a); free(b); return 0; }
