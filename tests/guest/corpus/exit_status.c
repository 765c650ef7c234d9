#include <stdio.h>
int main(void) { puts("exiting with 42"); return 42; }
