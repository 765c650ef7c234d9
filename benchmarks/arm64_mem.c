/* Memory-heavy benchmark: an open-addressing hash table, memcpy/memset of buffers, and a
 * linked list walked in a scattered order. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define SLOTS (1 << 16)
static uint64_t keys[SLOTS], vals[SLOTS];
struct node { struct node *next; uint64_t v; };
int main(int argc, char **argv) {
    int scale = argc > 1 ? atoi(argv[1]) : 10;
    uint64_t sum = 0;
    static char buf_a[1 << 16], buf_b[1 << 16];
    static struct node nodes[1 << 14];
    for (int r = 0; r < scale; r++) {
        memset(keys, 0, sizeof keys);
        uint64_t s = 88172645463325252ULL + r;
        for (int i = 0; i < 40000; i++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            uint64_t k = (s | 1), h = (k * 0x9E3779B97F4A7C15ULL) >> 48;
            while (keys[h] && keys[h] != k) h = (h + 1) & (SLOTS - 1);
            keys[h] = k; vals[h] += i;
        }
        for (int i = 0; i < SLOTS; i += 7) sum += vals[i] ^ keys[i];
        for (int i = 0; i < (int)sizeof buf_a; i++) buf_a[i] = (char)(i * 7 + r);
        for (int k = 0; k < 8; k++) { memcpy(buf_b, buf_a, sizeof buf_a); memmove(buf_a + 1, buf_b, sizeof buf_a - 1); }
        sum += (unsigned char)buf_a[12345] + (unsigned char)buf_b[54321];
        int n = 1 << 14;
        for (int i = 0; i < n; i++) { nodes[i].v = i; nodes[i].next = &nodes[(i * 5167 + 1) & (n - 1)]; }
        struct node *p = &nodes[0];
        for (int i = 0; i < 200000; i++) { sum += p->v; p = p->next; }
    }
    printf("%llu\n", (unsigned long long)sum);
    return 0;
}
