#include <stdio.h>
void sort(int *a, int n) {
    int i, j, t;
    for (i = 0; i < n; i++) for (j = 0; j + 1 < n - i; j++) if (a[j] > a[j + 1]) { t = a[j]; a[j] = a[j + 1]; a[j + 1] = t; }
}
int main(void) {
    int a[20], i; unsigned s = 12345;
    for (i = 0; i < 20; i++) { s = s * 1103515245 + 12345; a[i] = (s >> 16) % 1000 - 500; }
    sort(a, 20);
    for (i = 0; i < 20; i++) printf("%d%c", a[i], i == 19 ? '\n' : ' ');
    return 0;
}
