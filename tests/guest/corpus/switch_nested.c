#include <stdio.h>
int main(void) {
    int i, j, total = 0;
    for (i = 0; i < 5; i++) {
        switch (i % 3) {
        case 0:
            for (j = 0; j < 10; j++) { if (j == 4) break; if (j % 2) continue; total += j; }
            break;
        case 1:
            switch (i) { case 1: total += 100; break; default: total += 1000; }
            continue;
        default: total -= 5;
        }
        printf("i=%d total=%d\n", i, total);
    }
    printf("final %d\n", total);
    return 0;
}
