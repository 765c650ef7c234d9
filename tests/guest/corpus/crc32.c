#include <stdio.h>
#include <string.h>
unsigned crc32(unsigned char *p, int n) { unsigned c = 0xffffffff; int k; while (n--) { c ^= *p++; for (k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0xedb88320 : c >> 1; } return ~c; }
int main(void) {
    char *s[] = {"", "a", "abc", "The quick brown fox jumps over the lazy dog", "123456789"};
    int i; for (i = 0; i < 5; i++) printf("%08x\n", crc32((unsigned char *)s[i], strlen(s[i])));
    return 0;
}
