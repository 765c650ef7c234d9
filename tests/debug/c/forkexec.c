/* A parent that forks; the child runs child_work, then execs this program again with an argument. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int counter;

int child_work(int n)
{
    counter += n;
    return counter;
}

int report(int status)
{
    printf("parent: child exited with %d, counter %d\n", WEXITSTATUS(status), counter);
    return status;
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        printf("exec'd: %s\n", argv[1]);
        return 5;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        child_work(41);
        char *args[] = {argv[0], "again", NULL};
        execv("/proc/self/exe", args);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    report(status);
    return 0;
}
