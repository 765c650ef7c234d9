/* Every thread blocks forever: main holds a mutex and joins a thread that wants it.
   Not compared with qemu (which would hang): ncpu must stop with a deadlock report. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *want_lock(void *arg) {
    pthread_mutex_lock(&lock);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_mutex_lock(&lock);
    pthread_create(&t, NULL, want_lock, NULL);
    printf("joining\n");
    fflush(stdout);
    pthread_join(t, NULL);
    printf("never\n");
    return 0;
}
