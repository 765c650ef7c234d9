#include <stdio.h>
int m[4][5];
int trace(int a[][5], int n) { int i, t = 0; for (i = 0; i < n; i++) t += a[i][i]; return t; }
int main(void) {
    int i, j, id[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, prod[3][3];
    for (i = 0; i < 4; i++) for (j = 0; j < 5; j++) m[i][j] = i * 10 + j;
    printf("%d %d %d\n", m[3][4], trace(m, 4), (int)sizeof(m));
    for (i = 0; i < 3; i++) for (j = 0; j < 3; j++) prod[i][j] = id[i][j] * (i + j + 1);
    for (i = 0; i < 3; i++) printf("%d %d %d\n", prod[i][0], prod[i][1], prod[i][2]);
    printf("%d\n", *(*(m + 2) + 3));
    return 0;
}
