#include <stdio.h>
#include <stdint.h>
#include <string.h>
static uint32_t table[256];
int main(void) { for (uint32_t i = 0; i < 256; i++) { uint32_t c = i; for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1; table[i] = c; }
  const char *s = "The quick brown fox jumps over the lazy dog"; uint32_t c = 0xffffffffu; for (size_t i = 0; i < strlen(s); i++) c = table[(c ^ (uint8_t)s[i]) & 0xff] ^ (c >> 8); printf("%08x\n", c ^ 0xffffffffu);
  uint32_t a = 1, b = 0; for (int i = 0; i < 200000; i++) { a = (a + (uint8_t)(i * 7)) % 65521; b = (b + a) % 65521; } printf("adler %08x\n", (b << 16) | a);
  uint64_t h = 0xcbf29ce484222325ULL; for (int i = 0; i < 100000; i++) { h ^= (uint8_t)i; h *= 0x100000001b3ULL; } printf("fnv %016llx\n", (unsigned long long)h); return 0; }
