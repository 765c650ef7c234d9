#include <stdio.h>
#include <ctype.h>
char *text = "the quick brown fox jumps over the lazy dog\nthe end\n  spaces   here ";
int main(void) {
    int lines = 0, words = 0, chars = 0, in = 0; char *p;
    for (p = text; *p; p++) {
        chars++;
        if (*p == '\n') lines++;
        if (isspace(*p)) in = 0; else if (!in) { in = 1; words++; }
    }
    printf("%d %d %d\n", lines, words, chars);
    return 0;
}
