#include <stdio.h>
unsigned long fnv1a(char *s) { unsigned long h = 14695981039346656037UL; while (*s) { h ^= (unsigned char)*s++; h *= 1099511628211UL; } return h; }
unsigned fnv32(char *s) { unsigned h = 2166136261u; while (*s) { h ^= (unsigned char)*s++; h *= 16777619u; } return h; }
int main(void) { char *w[] = {"", "a", "foobar", "nCPU"}; int i; for (i = 0; i < 4; i++) printf("%016lx %08x\n", fnv1a(w[i]), fnv32(w[i])); return 0; }
