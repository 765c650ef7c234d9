#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmpi(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
static int cmps(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
int main(void) {
    static int a[5000]; unsigned s = 12345;
    for (int i = 0; i < 5000; i++) { s = s * 1103515245 + 12345; a[i] = (int)(s >> 8) % 100000 - 50000; }
    qsort(a, 5000, sizeof a[0], cmpi);
    long sum = 0; for (int i = 0; i < 5000; i++) sum += (long)a[i] * (i % 17);
    printf("%d %d %d %ld\n", a[0], a[2500], a[4999], sum);
    int key = a[1234]; int *f = bsearch(&key, a, 5000, sizeof a[0], cmpi); printf("found %d\n", f ? *f == key : -1);
    const char *w[] = {"pear", "apple", "fig", "banana", "cherry", "date", "elderberry", "grape", "kiwi", "lemon"};
    qsort(w, 10, sizeof w[0], cmps);
    for (int i = 0; i < 10; i++) printf("%s ", w[i]); printf("\n");
    return 0;
}
