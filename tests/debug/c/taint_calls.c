/* Taint through system calls: readv(2) scatters stdin over two buffers; the first names a
   file to open (a tainted path), the second is written out (tainted bytes); nothing else
   from stdin reaches a system call. */
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

int main(void)
{
    char name[4] = {0}, data[4] = {0};
    struct iovec iov[2] = {{name, 3}, {data, 4}};
    readv(0, iov, 2);
    int fd = open(name, O_RDONLY);          /* the kernel reads stdin[0..2] (and the NUL after) */
    write(1, data + 1, 2);                  /* stdin[4..5] */
    return fd < 0 ? 0 : 1;
}
