/* __thread variables: each thread has its own copy, initialized from the TLS image;
   pthread keys and their destructors; pthread_once. */
#include <pthread.h>
#include <stdio.h>

#define THREADS 4

static __thread int counter = 100;
static __thread char name[16] = "main";
static __thread long zeroed;
static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_calls, destructor_sum;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char report[THREADS][64];

static void destructor(void *value) {
    pthread_mutex_lock(&lock);
    destructor_sum += (int)(long)value;
    pthread_mutex_unlock(&lock);
}

static void init_once(void) { once_calls++; }

static void *work(void *arg) {
    long id = (long)arg;
    pthread_once(&once, init_once);
    int start = counter;
    name[0] = (char)('a' + id);
    name[1] = 0;
    for (int i = 0; i <= id; i++)
        counter += 10;
    zeroed += id;
    pthread_setspecific(key, (void *)(id + 1));
    snprintf(report[id], sizeof report[id], "thread %ld: start=%d counter=%d name=%s zeroed=%ld key=%ld",
             id, start, counter, name, zeroed, (long)pthread_getspecific(key));
    return &counter;             /* each thread's own address */
}

int main(void) {
    pthread_t t[THREADS];
    void *addr[THREADS];
    pthread_key_create(&key, destructor);
    counter = 7;
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, work, (void *)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], &addr[i]);
    for (int i = 0; i < THREADS; i++)
        puts(report[i]);
    int distinct = 1;
    for (int i = 0; i < THREADS; i++) {
        distinct &= addr[i] != (void *)&counter;
        for (int j = 0; j < i; j++)
            distinct &= addr[i] != addr[j];
    }
    printf("main: counter=%d name=%s zeroed=%ld distinct addresses=%d\n", counter, name, zeroed, distinct);
    printf("once ran %d time(s), destructors got %d\n", once_calls, destructor_sum);
    return 0;
}
