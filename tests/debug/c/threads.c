/* Two worker threads that wait at a barrier so that all three threads are alive at once. */
#include <pthread.h>
#include <stdio.h>

pthread_barrier_t barrier;
int results[2];

void checkpoint(void) { }

void *worker(void *arg)
{
    int id = (int)(long)arg;
    results[id] = id + 10;
    pthread_barrier_wait(&barrier);   /* all threads alive here */
    pthread_barrier_wait(&barrier);
    return 0;
}

int main(void)
{
    pthread_t t[2];
    pthread_barrier_init(&barrier, 0, 3);
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], 0, worker, (void *)i);
    pthread_barrier_wait(&barrier);
    checkpoint();
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    printf("%d %d\n", results[0], results[1]);
    return 0;
}
