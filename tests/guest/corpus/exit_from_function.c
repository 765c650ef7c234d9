#include <stdio.h>
#include <stdlib.h>
void fail(int code) { printf("failing with %d\n", code); exit(code); }
int main(void) { printf("start\n"); fail(7); printf("unreachable\n"); return 0; }
