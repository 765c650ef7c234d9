#include <stdio.h>
#include <stdlib.h>
static void bye(void) { printf("atexit handler\n"); }
int main(int argc, char **argv) { atexit(bye); printf("exiting with %d\n", argc > 1 ? atoi(argv[1]) : 42); exit(argc > 1 ? atoi(argv[1]) : 42); }
