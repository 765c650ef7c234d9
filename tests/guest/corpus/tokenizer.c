#include <stdio.h>
#include <ctype.h>
int main(void) {
    char *src = "x = 42 + foo*(y1 - 7) / 3; if (x>=10) return;";
    char *p = src;
    while (*p) {
        if (isspace(*p)) { p++; continue; }
        if (isdigit(*p)) { long v = 0; while (isdigit(*p)) v = v * 10 + *p++ - '0'; printf("NUM(%ld) ", v); }
        else if (isalpha(*p)) { char *s = p; while (isalnum(*p)) p++; printf("ID(%.*s) ", (int)(p - s), s); }
        else if (p[0] == '>' && p[1] == '=') { printf("GE "); p += 2; }
        else printf("P(%c) ", *p++);
    }
    printf("\n");
    return 0;
}
