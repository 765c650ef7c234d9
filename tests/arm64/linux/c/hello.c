#include <stdio.h>
int main(void) { printf("hello, world\n"); puts("second line"); fputs("to stderr\n", stderr); return 3; }
