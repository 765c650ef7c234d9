#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>
int main(void) {
    pid_t kids[6]; int sum = 0;
    for (int i = 0; i < 6; i++) { kids[i] = fork(); if (kids[i] == 0) { long x = 0; for (long k = 0; k < 20000L * (i + 1); k++) x += k % 7; _exit((int)(x % 50) + i); } }
    for (int i = 5; i >= 0; i--) { int st; waitpid(kids[i], &st, 0); printf("child %d -> %d\n", i, WEXITSTATUS(st)); sum += WEXITSTATUS(st); }
    printf("sum %d\n", sum);
    int p[2]; pipe(p);
    if (fork() == 0) { dup2(p[1], 1); close(p[0]); close(p[1]); printf("from grandchild via stdout\n"); fflush(stdout);
        if (fork() == 0) { printf("nested\n"); return 0; } wait(NULL); return 0; }
    close(p[1]); char buf[256]; ssize_t n; while ((n = read(p[0], buf, sizeof buf)) > 0) fwrite(buf, 1, n, stdout);
    wait(NULL);
    return 0;
}
