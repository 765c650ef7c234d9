#include <stdio.h>
#include <signal.h>
#include <unistd.h>
#include <string.h>
static volatile int got[65]; static volatile int order[8], n;
static void h(int s) { got[s]++; order[n++] = s; }
int main(void) { signal(SIGUSR1, h); signal(SIGUSR2, h);
  raise(SIGUSR1); printf("after raise: %d\n", got[SIGUSR1]);
  kill(getpid(), SIGUSR2); printf("after kill: %d\n", got[SIGUSR2]);
  sigset_t s, old; sigemptyset(&s); sigaddset(&s, SIGUSR1); sigprocmask(SIG_BLOCK, &s, &old);
  raise(SIGUSR1); raise(SIGUSR1); sigset_t pend; sigpending(&pend); printf("blocked: got %d pending %d\n", got[SIGUSR1], sigismember(&pend, SIGUSR1));
  sigprocmask(SIG_SETMASK, &old, NULL); printf("unblocked: got %d\n", got[SIGUSR1]);
  signal(SIGUSR1, SIG_IGN); raise(SIGUSR1); printf("ignored: got %d\n", got[SIGUSR1]);
  struct sigaction sa; memset(&sa, 0, sizeof sa); sa.sa_handler = h; sa.sa_flags = SA_RESETHAND; sigaction(SIGUSR2, &sa, NULL); raise(SIGUSR2);
  sigaction(SIGUSR2, NULL, &sa); printf("resethand: got %d now default %d\n", got[SIGUSR2], sa.sa_handler == SIG_DFL);
  printf("order:"); for (int i = 0; i < n; i++) printf(" %d", order[i]); printf("\n"); fflush(stdout);
  raise(SIGTERM); printf("not reached\n"); return 0; }
