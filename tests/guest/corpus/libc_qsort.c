#include <stdio.h>
#include <stdlib.h>
int cmp(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
int main(void) {
    int a[] = {9, -3, 7, 7, 0, 12, -40, 5, 3, 1000, -1};
    int n = sizeof(a) / sizeof(a[0]), i;
    qsort(a, n, sizeof(int), cmp);
    for (i = 0; i < n; i++) printf("%d ", a[i]);
    printf("\n");
    return 0;
}
