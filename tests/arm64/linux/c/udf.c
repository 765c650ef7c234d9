#include <stdio.h>
int main(void) { printf("before\n"); fflush(stdout); __asm__ volatile(".inst 0x00000000"); printf("after\n"); return 0; }
