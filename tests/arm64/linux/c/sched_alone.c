/* A thread alone for a while, then two threads appending to one log without a lock: what the
 * log holds depends on where each thread's turns ended (the test compares schedulers). */
#include <pthread.h>
#include <stdio.h>

static volatile unsigned char entries[1 << 16];
static volatile int n;

static void *work(void *arg) {
    unsigned char id = (unsigned char)(long)arg;
    for (int i = 0; i < 20000; i++) {
        int k = n;
        if (k < (int)sizeof entries) {
            entries[k] = id;
            n = k + 1;
        }
        for (volatile int j = 0; j < 20; j++)
            ;
    }
    return 0;
}

int main(void) {
    unsigned long x = 1;
    for (int i = 0; i < 300000; i++)          /* alone: several quanta, and part of one */
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    pthread_t t;
    pthread_create(&t, 0, work, (void *)2);
    work((void *)1);
    pthread_join(t, 0);
    int turns = 0;
    unsigned long h = x;
    for (int k = 0; k < n; k++) {
        turns += k == 0 || entries[k] != entries[k - 1];
        h = h * 31 + entries[k];
    }
    printf("%d entries in %d turns, %lx\n", n, turns, h);
    return 0;
}
