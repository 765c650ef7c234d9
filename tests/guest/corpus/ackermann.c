#include <stdio.h>
int ack(int m, int n) {
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}
int main(void) { int m, n; for (m = 0; m < 3; m++) for (n = 0; n < 5; n++) printf("ack(%d,%d)=%d\n", m, n, ack(m, n)); return 0; }
