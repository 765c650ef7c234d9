#include <stdio.h>
int main(void) {
    int c, n = 0, lines = 0;
    while ((c = getchar()) != EOF) { n++; if (c == '\n') lines++; }
    printf("%d chars %d lines\n", n, lines);
    return 0;
}
