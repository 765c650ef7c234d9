#include <stdio.h>
int main(void) {
    fprintf(stderr, "warning: %d things\n", 3);
    printf("to stdout\n");
    fputs("more stderr\n", stderr);
    return 1;
}
