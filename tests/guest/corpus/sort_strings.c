#include <stdio.h>
#include <string.h>
int main(void) {
    char *w[] = {"pear", "apple", "fig", "banana", "cherry", "date", "apricot"};
    int n = 7, i, j; char *t;
    for (i = 1; i < n; i++) for (j = i; j > 0 && strcmp(w[j - 1], w[j]) > 0; j--) { t = w[j]; w[j] = w[j - 1]; w[j - 1] = t; }
    for (i = 0; i < n; i++) printf("%s\n", w[i]);
    return 0;
}
