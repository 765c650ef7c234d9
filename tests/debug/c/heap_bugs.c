/* Sanitizer test: one heap bug per argv[1], and "clean" (correct use, no leak). */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "clean";
    char *p = malloc(16);
    memset(p, 'a', 16);
    volatile char c = 0;
    if (!strcmp(what, "overflow-write"))
        p[16] = 'x';                            /* one past the end */
    else if (!strcmp(what, "overflow-read"))
        c = p[-1];                              /* one before the start */
    else if (!strcmp(what, "use-after-free")) {
        free(p);
        c = p[3];
        return c != 0 ? 0 : 0;
    } else if (!strcmp(what, "double-free")) {
        free(p);
        free(p);
        return 0;
    } else if (!strcmp(what, "invalid-free")) {
        free(p + 4);
        return 0;
    } else if (!strcmp(what, "leak")) {
        char *q = malloc(40);                   /* never freed */
        q[0] = 1;
        p[0] = q[0];
    } else if (!strcmp(what, "uninit")) {
        int *q = malloc(8 * sizeof(int));
        q[0] = 1;
        c = (char)q[5];                         /* never written */
        free(q);
    } else {                                    /* clean: calloc, realloc, strings */
        char *q = calloc(4, 8);
        q = realloc(q, 64);
        strcpy(q, "clean heap use");
        printf("%s %zu\n", q, strlen(q));
        free(q);
    }
    free(p);
    return c;
}
