#include <stdio.h>
static int down(int n) { volatile char big[4096]; big[0] = (char)n; return down(n + 1) + big[0]; }
int main(void) { printf("recursing\n"); fflush(stdout); return down(0); }
