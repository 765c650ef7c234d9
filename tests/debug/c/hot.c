/* Profile and coverage test: hot() runs 10 times with 100 rounds each, cold() once,
   never() only with an argument; the right counts are known from the source. */
#include <stdlib.h>

volatile long sink;

long hot(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += i * 3;
    return s;
}

long cold(long n)
{
    return n + 1;
}

long never(long n)
{
    return n * 7;                   /* not run without an argument */
}

int main(int argc, char **argv)
{
    for (int k = 0; k < 10; k++)
        sink = hot(100);
    sink = cold(1);
    if (argc > 1)
        sink = never(atol(argv[1]));
    return 0;
}
