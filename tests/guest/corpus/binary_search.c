#include <stdio.h>
int bsearch_int(int *a, int n, int key) { int lo = 0, hi = n - 1; while (lo <= hi) { int mid = lo + (hi - lo) / 2; if (a[mid] == key) return mid; if (a[mid] < key) lo = mid + 1; else hi = mid - 1; } return -1; }
int main(void) { int a[50], i; for (i = 0; i < 50; i++) a[i] = i * 3; for (i = -3; i < 160; i += 17) printf("%d->%d ", i, bsearch_int(a, 50, i)); printf("\n"); return 0; }
