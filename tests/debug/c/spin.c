/* A long deterministic loop (argv[1] rounds) for debugger speed figures. */
#include <stdio.h>
#include <stdlib.h>

unsigned long state = 1;

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 1000;
    for (long i = 0; i < rounds; i++)
        state = state * 6364136223846793005UL + 1442695040888963407UL;
    printf("%lu\n", state);
    return 0;
}
