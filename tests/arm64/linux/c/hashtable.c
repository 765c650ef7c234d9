#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CAP 4096
static char *keys[CAP]; static int vals[CAP];
static unsigned hash(const char *s) { unsigned h = 5381; while (*s) h = h * 33 ^ (unsigned char)*s++; return h; }
static int *slot(const char *k, int create) { unsigned i = hash(k) % CAP; while (keys[i]) { if (!strcmp(keys[i], k)) return &vals[i]; i = (i + 1) % CAP; } if (!create) return 0; keys[i] = strdup(k); return &vals[i]; }
int main(void) { char w[32]; unsigned x = 42; for (int i = 0; i < 20000; i++) { x = x * 1664525 + 1013904223; int len = 1 + (x >> 28) % 3; for (int j = 0; j < len; j++) w[j] = 'a' + (x >> (8 + 5 * j)) % 6; w[len] = 0; (*slot(w, 1))++; }
  int distinct = 0, maxv = 0; char best[32] = ""; for (int i = 0; i < CAP; i++) if (keys[i]) { distinct++; if (vals[i] > maxv || (vals[i] == maxv && strcmp(keys[i], best) < 0)) { maxv = vals[i]; strcpy(best, keys[i]); } }
  printf("distinct %d best %s %d a=%d zz=%p\n", distinct, best, maxv, *slot("a", 0), (void *)slot("zz", 0)); return 0; }
