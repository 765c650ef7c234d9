/* Thread ends: a thread forks (the child has only that thread), pthread_exit in main
   leaves the others running, and exit() in a thread ends the whole process. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static sem_t forever;

static void *forker(void *arg) {
    (void)arg;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        printf("child: running\n");
        exit(5);
    }
    int status;
    waitpid(pid, &status, 0);
    printf("thread: child exited %d\n", WEXITSTATUS(status));
    return (void *)42L;
}

static void *sleeper(void *arg) {
    (void)arg;
    sem_wait(&forever);          /* never posted: ended by exit() in another thread */
    return NULL;
}

static void *ender(void *arg) {
    (void)arg;
    printf("ender: calling exit(3)\n");
    exit(3);
}

static void *last(void *arg) {
    pthread_join(*(pthread_t *)arg, NULL);   /* the ender */
    return NULL;
}

int main(void) {
    pthread_t f, s, e;
    void *r;
    sem_init(&forever, 0, 0);
    pthread_create(&f, NULL, forker, NULL);
    pthread_join(f, &r);
    printf("main: forker returned %ld\n", (long)r);
    fflush(stdout);
    pthread_create(&s, NULL, sleeper, NULL);
    pthread_create(&e, NULL, ender, NULL);
    static pthread_t ender_id;
    ender_id = e;
    pthread_t l;
    pthread_create(&l, NULL, last, &ender_id);
    pthread_exit(NULL);          /* main thread ends, the process lives on */
}
