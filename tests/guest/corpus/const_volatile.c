#include <stdio.h>
static const int table[4] = {10, 20, 30, 40};
int sum(const int *p, int n) { int s = 0; while (n--) s += *p++; return s; }
int main(void) { volatile int v = 5; const char *msg = "const"; register int r = 3; printf("%d %d %s %d\n", sum(table, 4), v * 2, msg, r); return 0; }
