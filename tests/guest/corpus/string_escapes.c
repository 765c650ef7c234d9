#include <stdio.h>
int main(void) {
    char *s = "tab\there\nquote\" backslash\\ q\'\x41\102\0hidden";
    int i;
    printf("%s\n", s);
    for (i = 0; i < 32; i++) printf("%d ", s[i]);
    printf("\n%d %d %d %d %d\n", '\n', '\t', '\\', '\'', '\0');
    printf("%d %d %d\n", '\x7f', '\377', (int)sizeof("abc\0def"));
    printf("concat: " "one " "two" "\n");
    return 0;
}
