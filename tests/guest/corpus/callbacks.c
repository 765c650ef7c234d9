#include <stdio.h>
struct handler { char *name; void (*fn)(int, void *); void *ctx; };
void count(int x, void *ctx) { (*(int *)ctx)++; }
void sum(int x, void *ctx) { *(long *)ctx += x; }
void maxf(int x, void *ctx) { int *m = ctx; if (x > *m) *m = x; }
void each(int *v, int n, struct handler *h) { int i; for (i = 0; i < n; i++) h->fn(v[i], h->ctx); }
int main(void) {
    int v[] = {5, -2, 17, 8, 3}, c = 0, m = -1000; long s = 0; int i;
    struct handler hs[3];
    hs[0].name = "count"; hs[0].fn = count; hs[0].ctx = &c;
    hs[1].name = "sum"; hs[1].fn = sum; hs[1].ctx = &s;
    hs[2].name = "max"; hs[2].fn = maxf; hs[2].ctx = &m;
    for (i = 0; i < 3; i++) each(v, 5, &hs[i]);
    printf("count=%d sum=%ld max=%d\n", c, s, m);
    return 0;
}
