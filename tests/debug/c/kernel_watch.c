/* Watched buffers that only system calls touch: read(2) fills one, write(2) reads another. */
#include <stdio.h>
#include <unistd.h>

char inbuf[16];
char outbuf[8] = "out!\n";
int fds[2];

int main(void)
{
    pipe(fds);
    write(fds[1], "data", 4);
    long n = read(fds[0], inbuf, sizeof inbuf);
    write(1, outbuf, 5);
    printf("%ld %s\n", n, inbuf);
    return 0;
}
