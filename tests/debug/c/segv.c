/* Writes through a null pointer: the debugger must stop at the faulting line. */
#include <stdio.h>

int *target_pointer = 0;

void crash(int value)
{
    *target_pointer = value;
}

int main(void)
{
    puts("about to crash");
    fflush(stdout);
    crash(42);
    return 0;
}
