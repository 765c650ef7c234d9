#include <stdio.h>
extern int shared;
extern int helper(int);
int use(void) { return helper(shared); }
int shared = 21;
int helper(int x) { return x * 2; }
int main(void) { extern int shared; printf("%d\n", use()); shared = 50; printf("%d\n", use()); return 0; }
