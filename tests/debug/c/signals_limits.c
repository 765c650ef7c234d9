/* strace's decoding of rt_sigaction, rt_sigprocmask, prlimit64, getrlimit and setrlimit. */
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static void on_int(int signo) { (void)signo; }

int main(void)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_int;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGTERM);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, &old);
    signal(SIGPIPE, SIG_IGN);
    sigset_t set, prev;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGUSR1);
    sigprocmask(SIG_BLOCK, &set, &prev);
    sigfillset(&set);
    sigprocmask(SIG_SETMASK, &set, NULL);
    sigprocmask(SIG_SETMASK, &prev, NULL);
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = 512;
    setrlimit(RLIMIT_NOFILE, &rl);
    syscall(SYS_prlimit64, 0, RLIMIT_STACK, NULL, &rl);
    syscall(SYS_getrlimit, RLIMIT_CORE, &rl);
    syscall(SYS_setrlimit, RLIMIT_CORE, &rl);
    return 0;
}
