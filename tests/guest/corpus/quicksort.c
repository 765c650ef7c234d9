#include <stdio.h>
void qs(long *a, int lo, int hi) {
    long p, t; int i, j;
    if (lo >= hi) return;
    p = a[(lo + hi) / 2]; i = lo; j = hi;
    while (i <= j) {
        while (a[i] < p) i++;
        while (a[j] > p) j--;
        if (i <= j) { t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
    }
    qs(a, lo, j); qs(a, i, hi);
}
int main(void) {
    long a[100]; int i; unsigned long s = 88172645463325252UL;
    for (i = 0; i < 100; i++) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; a[i] = (long)(s % 100000) - 50000; }
    qs(a, 0, 99);
    for (i = 0; i < 100; i += 9) printf("a[%d]=%ld\n", i, a[i]);
    for (i = 1; i < 100; i++) if (a[i - 1] > a[i]) { printf("not sorted\n"); return 1; }
    printf("sorted\n");
    return 0;
}
