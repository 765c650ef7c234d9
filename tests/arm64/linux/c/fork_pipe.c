#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>
#include <string.h>
#include <stdlib.h>
int main(void) {
    int fd[2]; pipe(fd);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        for (int i = 0; i < 100; i++) { char b[32]; int n = sprintf(b, "msg %d\n", i); write(fd[1], b, n); }
        close(fd[1]); _exit(7);
    }
    close(fd[1]);
    char buf[4096]; long total = 0; int lines = 0; ssize_t n;
    while ((n = read(fd[0], buf, sizeof buf)) > 0) { total += n; for (int i = 0; i < n; i++) lines += buf[i] == '\n'; }
    int st; pid_t w = waitpid(pid, &st, 0);
    printf("total %ld lines %d same %d exited %d status %d\n", total, lines, w == pid, WIFEXITED(st), WEXITSTATUS(st));
    pid_t c2 = fork(); if (c2 == 0) { abort(); }
    waitpid(c2, &st, 0); printf("child signaled %d sig %d\n", WIFSIGNALED(st), WTERMSIG(st));
    printf("wait no child %d\n", wait(&st));
    fflush(stdout);
    return 0;
}
