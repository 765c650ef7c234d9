/* A few system calls whose strace lines are known. */
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
    int fd = open("/no/such/file", O_RDONLY);
    write(1, "hi\n", 3);
    char buffer[8];
    int pipes[2];
    pipe(pipes);
    write(pipes[1], "abc", 3);
    read(pipes[0], buffer, sizeof buffer);
    close(pipes[0]);
    _exit(fd == -1 ? 7 : 1);
}
