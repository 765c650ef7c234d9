#include <stdio.h>
#include <signal.h>
#include <setjmp.h>
#include <string.h>
static sigjmp_buf jb; static volatile void *fault_addr; static volatile int hits;
static void handler(int sig, siginfo_t *si, void *uc) { (void)uc; hits++; fault_addr = si->si_addr; siglongjmp(jb, sig); }
int main(void) {
    struct sigaction sa; memset(&sa, 0, sizeof sa); sa.sa_sigaction = handler; sa.sa_flags = SA_SIGINFO; sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    for (int i = 0; i < 3; i++) {
        int r = sigsetjmp(jb, 1);
        if (r == 0) { volatile int *p = (int *)(0x10 + 8 * i); *p = 1; printf("not reached\n"); }
        else printf("caught signal %d at %p hits=%d\n", r, (void *)fault_addr, hits);
    }
    sigset_t cur; sigprocmask(SIG_BLOCK, NULL, &cur); printf("segv blocked after siglongjmp: %d\n", sigismember(&cur, SIGSEGV));
    return 0;
}
