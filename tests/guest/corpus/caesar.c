#include <stdio.h>
void rot(char *s, int k) { for (; *s; s++) { if (*s >= 'a' && *s <= 'z') *s = 'a' + (*s - 'a' + k) % 26; else if (*s >= 'A' && *s <= 'Z') *s = 'A' + (*s - 'A' + k) % 26; } }
int main(void) {
    char msg[] = "Attack at Dawn, Zebra!";
    rot(msg, 3); printf("%s\n", msg);
    rot(msg, 23); printf("%s\n", msg);
    rot(msg, 13); printf("%s\n", msg);
    return 0;
}
