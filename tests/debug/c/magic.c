/* Fuzzing test: a crash planted behind a 4-byte magic number and a length check. */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

int parse(const unsigned char *buf, long n)
{
    uint32_t magic;
    if (n < 8)
        return 1;
    memcpy(&magic, buf, 4);
    if (magic != 0x214d554eu)       /* "NUM!" little-endian */
        return 2;
    if (buf[4] == 'x')
        *(volatile int *)0 = 1;     /* the planted bug */
    return 0;
}

int main(void)
{
    unsigned char buf[64];
    long n = read(0, buf, sizeof buf);
    return parse(buf, n);
}
