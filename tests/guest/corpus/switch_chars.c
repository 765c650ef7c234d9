#include <stdio.h>
int main(void) {
    char *s = "Hello, World! 123 ok?";
    int vowels = 0, digits = 0, punct = 0, other = 0;
    for (; *s; s++) switch (*s | 32) {
        case 'a': case 'e': case 'i': case 'o': case 'u': vowels++; break;
        case '0' | 32: case '1': case '2': case '3': digits++; break;
        case ',' | 32: case '!' | 32: case '?': punct++; break;
        default: other++;
    }
    printf("vowels %d digits %d punct %d other %d\n", vowels, digits, punct, other);
    return 0;
}
