#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define NB 64
struct entry { char *key; int value; struct entry *next; };
struct entry *buckets[NB];
unsigned hash(char *s) { unsigned h = 5381; while (*s) h = h * 33 ^ (unsigned char)*s++; return h; }
void put(char *k, int v) {
    unsigned b = hash(k) % NB; struct entry *e;
    for (e = buckets[b]; e; e = e->next) if (!strcmp(e->key, k)) { e->value = v; return; }
    e = malloc(sizeof(*e)); e->key = strdup(k); e->value = v; e->next = buckets[b]; buckets[b] = e;
}
int get(char *k) { struct entry *e; for (e = buckets[hash(k) % NB]; e; e = e->next) if (!strcmp(e->key, k)) return e->value; return -1; }
int main(void) {
    char key[16]; int i;
    for (i = 0; i < 300; i++) { sprintf(key, "k%d", i); put(key, i * i); }
    put("k7", -7);
    printf("%d %d %d %d\n", get("k7"), get("k299"), get("k150"), get("nope"));
    printf("%u %u\n", hash("hello"), hash(""));
    return 0;
}
