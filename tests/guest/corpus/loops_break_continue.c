#include <stdio.h>
int main(void) {
    int i, j, n = 0;
    for (i = 0; i < 10; i++) {
        if (i == 2) continue;
        j = 0;
        while (1) { j++; if (j > i) break; if (j % 2) continue; n += j; }
        do { n++; if (n % 7 == 0) break; } while (n % 5);
        if (i == 8) break;
    }
    printf("%d %d %d\n", i, j, n);
    return 0;
}
