#include <stdio.h>
int main(void) { printf("before crash\n"); fflush(stdout); volatile int *p = (int *)0x8; return *p; }
