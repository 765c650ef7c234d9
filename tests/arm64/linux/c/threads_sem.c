/* Semaphores (sem_post/sem_wait/sem_trywait/sem_timedwait), a detached thread,
   a barrier and a read-write lock. */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>

#define WORKERS 4

static sem_t ready, go, detached_done;
static pthread_barrier_t barrier;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int table[WORKERS];
static int detached_value;

static void *detached(void *arg) {
    detached_value = (int)(long)arg * 3;
    sem_post(&detached_done);
    return NULL;
}

static void *worker(void *arg) {
    long id = (long)arg;
    sem_post(&ready);
    sem_wait(&go);
    pthread_barrier_wait(&barrier);
    pthread_rwlock_wrlock(&rw);
    table[id] = (int)(id * id + 1);
    pthread_rwlock_unlock(&rw);
    pthread_barrier_wait(&barrier);
    int sum = 0;
    pthread_rwlock_rdlock(&rw);
    for (int i = 0; i < WORKERS; i++)
        sum += table[i];
    pthread_rwlock_unlock(&rw);
    return (void *)(long)sum;
}

int main(void) {
    pthread_t t[WORKERS], d;
    pthread_attr_t attr;
    sem_init(&ready, 0, 0);
    sem_init(&go, 0, 0);
    sem_init(&detached_done, 0, 0);
    pthread_barrier_init(&barrier, NULL, WORKERS);

    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_create(&d, &attr, detached, (void *)14L);
    pthread_attr_destroy(&attr);
    sem_wait(&detached_done);
    printf("detached thread set %d\n", detached_value);

    for (long i = 0; i < WORKERS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < WORKERS; i++)
        sem_wait(&ready);
    int value;
    sem_getvalue(&ready, &value);
    printf("all %d ready, ready=%d, trywait=%d errno=%s\n", WORKERS, value, sem_trywait(&ready),
           errno == EAGAIN ? "EAGAIN" : "?");
    for (int i = 0; i < WORKERS; i++)
        sem_post(&go);
    for (int i = 0; i < WORKERS; i++) {
        void *r;
        pthread_join(t[i], &r);
        printf("worker %d saw sum %ld\n", i, (long)r);
    }
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 1;
    int rc = sem_timedwait(&go, &until);
    printf("sem_timedwait: rc=%d %s\n", rc, errno == ETIMEDOUT ? "ETIMEDOUT" : "?");
    return 0;
}
