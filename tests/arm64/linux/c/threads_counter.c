/* N threads add to a mutex-protected counter; pthread_join hands back each thread's result. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>

#define THREADS 6
#define ROUNDS 3000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static pid_t pids[THREADS], tids[THREADS];

static void *work(void *arg) {
    long id = (long)arg, mine = 0;
    pids[id] = getpid();
    tids[id] = (pid_t)syscall(SYS_gettid);
    for (int i = 0; i < ROUNDS; i++) {
        pthread_mutex_lock(&lock);
        counter += id + 1;
        if (i % 500 == 0)
            sched_yield();       /* holding the lock: the others must wait for it */
        pthread_mutex_unlock(&lock);
        mine += id + 1;
    }
    return (void *)(mine * 10 + id);
}

int main(void) {
    pthread_t t[THREADS];
    for (long i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, work, (void *)i) != 0)
            return 1;
    long total = 0;
    for (int i = 0; i < THREADS; i++) {
        void *result;
        int rc = pthread_join(t[i], &result);
        printf("join %d: rc=%d result=%ld\n", i, rc, (long)result);
        total += (long)result / 10;
    }
    int same_pid = 1, distinct_tid = 1;
    for (int i = 0; i < THREADS; i++) {
        same_pid &= pids[i] == getpid();
        distinct_tid &= tids[i] != getpid();
        for (int j = 0; j < i; j++)
            distinct_tid &= tids[i] != tids[j];
    }
    printf("counter=%ld expected=%ld sum=%ld\n", counter, (long)ROUNDS * THREADS * (THREADS + 1) / 2, total);
    printf("getpid same in threads: %d, tids distinct: %d\n", same_pid, distinct_tid);
    printf("join self: %d\n", pthread_join(pthread_self(), NULL));   /* EDEADLK */
    return 0;
}
