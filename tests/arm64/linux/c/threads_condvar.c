/* Producer/consumer over a bounded queue with two condition variables, several of each. */
#include <pthread.h>
#include <stdio.h>

#define SLOTS 4
#define PRODUCERS 3
#define CONSUMERS 2
#define ITEMS 400            /* per producer */

static int queue[SLOTS], head, count, done_producers;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER, not_empty = PTHREAD_COND_INITIALIZER;

static void *producer(void *arg) {
    long id = (long)arg;
    for (int i = 1; i <= ITEMS; i++) {
        pthread_mutex_lock(&lock);
        while (count == SLOTS)
            pthread_cond_wait(&not_full, &lock);
        queue[(head + count++) % SLOTS] = (int)(id * 100000 + i);
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&lock);
    }
    pthread_mutex_lock(&lock);
    done_producers++;
    pthread_cond_broadcast(&not_empty);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void *consumer(void *arg) {
    long sum = 0, n = 0;
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&lock);
        while (count == 0 && done_producers < PRODUCERS)
            pthread_cond_wait(&not_empty, &lock);
        if (count == 0) {
            pthread_mutex_unlock(&lock);
            break;
        }
        int item = queue[head];
        head = (head + 1) % SLOTS;
        count--;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&lock);
        sum += item;
        n++;
    }
    long *out = arg;
    out[0] = sum;
    out[1] = n;
    return NULL;
}

int main(void) {
    pthread_t p[PRODUCERS], c[CONSUMERS];
    long results[CONSUMERS][2];
    for (long i = 0; i < CONSUMERS; i++)
        pthread_create(&c[i], NULL, consumer, results[i]);
    for (long i = 0; i < PRODUCERS; i++)
        pthread_create(&p[i], NULL, producer, (void *)(i + 1));
    for (int i = 0; i < PRODUCERS; i++)
        pthread_join(p[i], NULL);
    long sum = 0, n = 0;
    for (int i = 0; i < CONSUMERS; i++) {
        pthread_join(c[i], NULL);
        sum += results[i][0];
        n += results[i][1];
    }
    printf("consumed %ld items, sum %ld, left %d\n", n, sum, count);

    /* a timed wait nobody signals: times out (on the virtual clock under ncpu) */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 20 * 1000 * 1000;
    if (until.tv_nsec >= 1000000000) { until.tv_sec++; until.tv_nsec -= 1000000000; }
    pthread_mutex_lock(&lock);
    int rc = pthread_cond_timedwait(&not_full, &lock, &until);
    pthread_mutex_unlock(&lock);
    printf("timedwait: %s\n", rc == 110 ? "ETIMEDOUT" : "other");
    return 0;
}
