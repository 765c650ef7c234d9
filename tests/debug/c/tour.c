/* The program of the walk-through in docs/debugging.md: it sums its input, keeps a copy of
   it on the heap (one byte too many), crashes on input starting with "BUG!", and, run as
   `tour key`, compares a 4-byte secret with an early exit. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int total;

void add(int value)
{
    total += value;
}

int check_key(const unsigned char *guess)
{
    static const unsigned char key[4] = {'k', 'e', 'y', '!'};
    for (int i = 0; i < 4; i++)
        if (guess[i] != key[i])         /* returns at the first difference */
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    unsigned char input[64] = {0};
    long n = read(0, input, sizeof input - 1);
    if (argc > 1)
        return check_key(input);
    uint32_t magic;
    memcpy(&magic, input, 4);
    if (magic == 0x21475542u)           /* "BUG!" */
        *(volatile int *)0 = 1;
    char *copy = malloc(n);
    for (long i = 0; i <= n; i++)       /* <= : writes one byte past the end */
        copy[i] = input[i];
    for (long i = 0; i < n; i++)
        add(input[i]);
    printf("%ld bytes, total %d\n", n, total);
    free(copy);
    return 0;
}
