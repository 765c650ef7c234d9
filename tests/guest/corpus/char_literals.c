#include <stdio.h>
int main(void) {
    char c; int n = 0; signed char sc = -1; unsigned char uc = 200;
    for (c = 'a'; c <= 'z'; c++) n += c - 'a';
    printf("sum %d\n", n);
    printf("%c%c%c\n", 'N', 'C' + 1 - 1, 67);
    printf("sc=%d uc=%d plain=%d\n", sc, uc, (char)200);
    c = 255; c++; printf("wrap %d\n", c);
    sc = 127; sc++; printf("swrap %d\n", sc);
    return 0;
}
