#include <stdio.h>
#include <string.h>
void reverse(char *s) { int i = 0, j = strlen(s) - 1; char t; while (i < j) { t = s[i]; s[i++] = s[j]; s[j--] = t; } }
int is_pal(char *s) { int n = strlen(s), i; for (i = 0; i < n / 2; i++) if (s[i] != s[n - 1 - i]) return 0; return 1; }
int main(void) {
    char words[4][16] = {"racecar", "hello", "abba", "x"};
    int i;
    for (i = 0; i < 4; i++) { printf("%s palindrome=%d ", words[i], is_pal(words[i])); reverse(words[i]); printf("reversed=%s\n", words[i]); }
    return 0;
}
