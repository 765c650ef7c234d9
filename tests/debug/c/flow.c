/* Taint and reverse data-flow test: the exit status is computed from stdin bytes 2 and 5 only;
   byte 0 decides a branch, byte 1 indexes a table, the rest is echoed by write(2). */
#include <unistd.h>

static const unsigned char table[256] = {1, 2, 3};
volatile int sink;

int mix(int a, int b)
{
    return (a * 3 + b) ^ 0x55;
}

int main(void)
{
    unsigned char buf[8] = {0};
    if (read(0, buf, sizeof buf) != 8)
        return 100;
    if (buf[0] == 'Q')
        sink = 1;
    sink = table[buf[1]];
    write(1, buf + 6, 2);
    return mix(buf[2], buf[5]) & 0x7f;
}
