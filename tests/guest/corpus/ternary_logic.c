#include <stdio.h>
int calls;
int t(int v) { calls++; return v; }
int main(void) {
    int i, a;
    for (i = 0; i < 4; i++) printf("%d ", i == 0 ? 10 : i == 1 ? 20 : i == 2 ? 30 : 40);
    printf("\n");
    a = t(0) && t(1); printf("%d %d\n", a, calls);
    a = t(1) || t(1); printf("%d %d\n", a, calls);
    a = t(1) && t(2) && t(0); printf("%d %d\n", a, calls);
    a = t(0) || t(0) || t(3); printf("%d %d\n", a, calls);
    printf("%d %d %d\n", !5, !0, !!7);
    printf("%d\n", (3 > 2) + (2 > 3) + (1 == 1));
    return 0;
}
