#include <stdio.h>
#include <ctype.h>
int main(void) {
    int c, counts[6] = {0};
    char *s = "Hello World 42!\tTabs\nand MIXED case_xyz";
    for (; *s; s++) {
        c = *s;
        counts[0] += isdigit(c) != 0; counts[1] += isalpha(c) != 0; counts[2] += isspace(c) != 0;
        counts[3] += isupper(c) != 0; counts[4] += isalnum(c) != 0; counts[5] += ispunct(c) != 0;
        putchar(toupper(c));
    }
    printf("\n%d %d %d %d %d %d\n", counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]);
    printf("%c%c %d %d\n", tolower('Q'), toupper('q'), isxdigit('f') != 0, isxdigit('g') != 0);
    return 0;
}
