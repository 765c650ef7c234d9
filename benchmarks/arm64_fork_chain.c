/* A chain of N processes: each forks the next and waits for it; the last one
   maps M MiB (argv[2], default 0) without touching it, then all exit. */
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int depth = argc > 1 ? atoi(argv[1]) : 0;
    size_t mib = argc > 2 ? strtoul(argv[2], NULL, 10) : 0;
    for (int i = 0; i < depth; i++) {
        pid_t pid = fork();
        if (pid < 0) return 1;
        if (pid > 0) {
            int status;
            waitpid(pid, &status, 0);
            return WEXITSTATUS(status);
        }
    }
    if (mib) {
        char *p = mmap(NULL, mib << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return 2;
        p[0] = 1;
    }
    return 0;
}
