/* pthread_kill reaches the chosen thread (even while it waits on a semaphore),
   raise() in a thread runs the handler in that thread. */
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>

static sem_t started, release;
static pthread_t target;
static volatile sig_atomic_t in_target, in_other;

static void handler(int signo) {
    if (pthread_equal(pthread_self(), target))
        in_target += signo;
    else
        in_other += signo;
}

static void *waiter(void *arg) {
    (void)arg;
    sem_post(&started);
    while (sem_wait(&release) != 0)
        ;                        /* EINTR when the handler ran: wait again */
    raise(SIGUSR2);
    return (void *)(long)in_target;
}

int main(void) {
    struct sigaction sa = {0};
    sa.sa_handler = handler;
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGUSR2, &sa, NULL);
    sem_init(&started, 0, 0);
    sem_init(&release, 0, 0);
    pthread_create(&target, NULL, waiter, NULL);
    sem_wait(&started);
    printf("pthread_kill: %d\n", pthread_kill(target, SIGUSR1));
    sem_post(&release);
    void *r;
    pthread_join(target, &r);
    printf("target saw %ld, other threads saw %d\n", (long)r, (int)in_other);
    printf("pthread_kill after join: %d\n", pthread_kill(pthread_self(), 0));
    return 0;
}
