/* Misaligned exclusives and LSE atomics: qemu-user delivers SIGBUS.
   Each case runs in a child; the parent prints how the child ended. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

static _Alignas(16) unsigned char buf[64];

static void run_case(int k, unsigned long off) {
    uint64_t *p = (uint64_t *)(buf + off);
    uint64_t v = 5, r = 0;
    uint32_t fail = 0;
    switch (k) {
    case 0: __asm__ volatile("ldxr %0, [%1]" : "=r"(r) : "r"(p) : "memory"); break;
    case 1: __asm__ volatile("ldaxr %0, [%1]" : "=r"(r) : "r"(p) : "memory"); break;
    case 2: __asm__ volatile("ldxr %0, [%2]\n stxr %w1, %0, [%2]" : "=&r"(r), "=&r"(fail) : "r"(p) : "memory"); break;
    case 3: __asm__ volatile("ldxr %w0, [%1]" : "=r"(r) : "r"(p) : "memory"); break;
    case 4: __asm__ volatile(".arch_extension lse\n cas %0, %2, [%1]" : "+r"(v) : "r"(p), "r"(r) : "memory"); break;
    case 5: __asm__ volatile(".arch_extension lse\n ldadd %1, %0, [%2]" : "=r"(r) : "r"(v), "r"(p) : "memory"); break;
    case 6: __asm__ volatile(".arch_extension lse\n swpal %w1, %w0, [%2]" : "=r"(r) : "r"(v), "r"(p) : "memory"); break;
    case 7: __asm__ volatile("ldxp %0, %1, [%2]" : "=&r"(r), "=&r"(v) : "r"(p) : "memory"); break;
    }
    printf("case %d off %lu ok r=%llu fail=%u\n", k, off, (unsigned long long)r, fail);
}

int main(void) {
    memset(buf, 0, sizeof buf);
    static const unsigned long offs[] = {0, 1, 4, 8};
    for (int k = 0; k < 8; k++) {
        for (unsigned i = 0; i < sizeof offs / sizeof offs[0]; i++) {
            fflush(stdout);
            pid_t pid = fork();
            if (pid == 0) {
                close(2);          /* qemu reports the uncaught signal on stderr */
                run_case(k, offs[i]);
                fflush(stdout);
                _exit(0);
            }
            int status = 0;
            waitpid(pid, &status, 0);
            if (WIFSIGNALED(status))
                printf("case %d off %lu signal %d\n", k, offs[i], WTERMSIG(status));
            else
                printf("case %d off %lu exit %d\n", k, offs[i], WEXITSTATUS(status));
        }
    }
    return 0;
}
