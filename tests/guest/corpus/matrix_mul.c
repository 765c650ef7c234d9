#include <stdio.h>
#define N 6
long a[N][N], b[N][N], c[N][N];
int main(void) {
    int i, j, k; long tr = 0;
    for (i = 0; i < N; i++) for (j = 0; j < N; j++) { a[i][j] = i + j; b[i][j] = i - j; }
    for (i = 0; i < N; i++) for (j = 0; j < N; j++) { c[i][j] = 0; for (k = 0; k < N; k++) c[i][j] += a[i][k] * b[k][j]; }
    for (i = 0; i < N; i++) { for (j = 0; j < N; j++) printf("%4ld", c[i][j]); printf("\n"); tr += c[i][i]; }
    printf("trace %ld\n", tr);
    return 0;
}
