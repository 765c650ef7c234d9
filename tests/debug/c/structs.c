/* strace's structure decoding: stat, timespec, utsname, wait status, pipe2, iovec. */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
    struct stat st;
    struct timespec ts = {0, 1000};
    struct utsname u;
    int fds[2], status;
    struct iovec iov[2] = {{"ab", 2}, {"cde\n", 4}};
    fstat(1, &st);
    nanosleep(&ts, 0);
    uname(&u);
    pipe(fds);
    writev(1, iov, 2);
    pid_t child = fork();
    if (child == 0)
        _exit(3);
    waitpid(child, &status, 0);
    return 0;
}
