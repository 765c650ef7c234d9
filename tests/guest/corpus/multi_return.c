#include <stdio.h>
void divmod(int a, int b, int *q, int *r) { *q = a / b; *r = a % b; }
struct pair { long first, second; char label[4]; };
struct pair minmax(int *v, int n) { struct pair p; int i; p.first = p.second = v[0]; for (i = 1; i < n; i++) { if (v[i] < p.first) p.first = v[i]; if (v[i] > p.second) p.second = v[i]; } p.label[0] = 'm'; p.label[1] = 0; return p; }
int main(void) { int q, r, v[] = {4, -9, 17, 3}; struct pair p; divmod(47, 5, &q, &r); p = minmax(v, 4); printf("%d %d %ld %ld %s %ld\n", q, r, p.first, p.second, p.label, minmax(v, 2).second); return 0; }
