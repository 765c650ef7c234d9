#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void merge_sort(int *a, int *t, int n) { if (n < 2) return; int m = n / 2; merge_sort(a, t, m); merge_sort(a + m, t, n - m);
    int i = 0, j = m, k = 0; while (i < m && j < n) t[k++] = a[i] <= a[j] ? a[i++] : a[j++]; while (i < m) t[k++] = a[i++]; while (j < n) t[k++] = a[j++]; memcpy(a, t, n * sizeof *a); }
static void sift(int *a, int i, int n) { for (;;) { int l = 2 * i + 1, b = i; if (l < n && a[l] > a[b]) b = l; if (l + 1 < n && a[l + 1] > a[b]) b = l + 1; if (b == i) return; int t = a[i]; a[i] = a[b]; a[b] = t; i = b; } }
static void heap_sort(int *a, int n) { for (int i = n / 2 - 1; i >= 0; i--) sift(a, i, n); for (int e = n - 1; e > 0; e--) { int t = a[0]; a[0] = a[e]; a[e] = t; sift(a, 0, e); } }
static void insertion(short *a, int n) { for (int i = 1; i < n; i++) { short v = a[i]; int j = i - 1; while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; } a[j + 1] = v; } }
int main(void) {
    enum { N = 3000 }; static int a[N], b[N], t[N]; static short s[600]; unsigned x = 99;
    for (int i = 0; i < N; i++) { x = x * 69069 + 1; a[i] = b[i] = (int)(x >> 3); }
    for (int i = 0; i < 600; i++) { x = x * 69069 + 1; s[i] = (short)(x >> 16); }
    merge_sort(a, t, N); heap_sort(b, N); insertion(s, 600);
    int same = memcmp(a, b, sizeof a) == 0; long long h = 0; for (int i = 0; i < N; i++) h = h * 31 + a[i];
    printf("same %d hash %lld min %d max %d s0 %d s599 %d\n", same, h, a[0], a[N - 1], s[0], s[599]);
    return 0;
}
