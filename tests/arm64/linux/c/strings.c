#include <stdio.h>
#include <string.h>
#include <stdlib.h>
int main(void) {
    char buf[256], b2[256];
    strcpy(buf, "hello"); strcat(buf, ", "); strncat(buf, "world!!!", 5);
    printf("%s %zu\n", buf, strlen(buf));
    printf("%d %d %d\n", strcmp("abc", "abd") < 0, strncmp("abcX", "abcY", 3), strcmp("b", "a") > 0);
    printf("%s|%s|%s\n", strchr(buf, 'o'), strrchr(buf, 'o'), strstr(buf, "wor"));
    printf("%zu %zu\n", strspn("aaabbc", "ab"), strcspn("hello world", " "));
    char t[] = "a,b;;c,d"; for (char *p = strtok(t, ",;"); p; p = strtok(NULL, ",;")) printf("[%s]", p); printf("\n");
    char *d = strdup("duplicate"); printf("%s\n", d); free(d);
    for (int off = 0; off < 16; off++) for (int len = 0; len < 70; len += 7) {
        for (int i = 0; i < 256; i++) buf[i] = (char)(i * 7 + off);
        memcpy(b2, buf, sizeof b2);
        memmove(buf + off, buf + 3, len); memmove(b2 + 3, b2 + off, len);
        memset(buf + 100 + off, 'x', len);
        unsigned h = 0; for (int i = 0; i < 256; i++) h = h * 33 + (unsigned char)buf[i] + (unsigned char)b2[i];
        if (len == 63) printf("%d %u %d %p\n", off, h, memcmp(buf, b2, 200) > 0, memchr(buf, 'x', 256) ? (void*)1 : (void*)0);
    }
    printf("%d %d\n", memcmp("abc", "abd", 3) < 0, memcmp("abc", "abc", 3));
    char big[5000]; memset(big, 'q', sizeof big - 1); big[4999] = 0; printf("%zu\n", strlen(big + 3));
    return 0;
}
