/* Children that wait on a pipe until the parent has forked as many as it can. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    int fds[2];
    pipe(fds);
    int n = 0;
    for (;;) {
        pid_t pid = fork();
        if (pid == 0) { char c; close(fds[1]); read(fds[0], &c, 1); _exit(0); }
        if (pid < 0) { printf("forked %d, then: %s\n", n, strerror(errno)); break; }
        n++;
    }
    close(fds[1]);
    while (wait(NULL) > 0) n--;
    printf("all reaped: %d\n", n == 0);
    pid_t again = fork();
    if (again == 0) _exit(3);
    int status;
    waitpid(again, &status, 0);
    printf("fork after reaping: %d\n", WEXITSTATUS(status));
    return 0;
}
