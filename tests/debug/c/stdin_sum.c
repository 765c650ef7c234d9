/* Sums numbers read from stdin, mixed with host time and entropy (when --host-time is on). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

long total = 0;

int main(void)
{
    char line[100];
    unsigned seed = 0;
    struct timespec now;
    getrandom(&seed, sizeof seed, 0);
    clock_gettime(CLOCK_REALTIME, &now);
    while (fgets(line, sizeof line, stdin))
        total += atol(line);
    printf("total %ld seed %u ns %ld\n", total, seed, (long)now.tv_nsec);
    return 0;
}
