/* Asks for more memory than the machine has: "map" a mapping larger than all of it,
   "brk" a heap larger than all of it, "fork" a child of a process that holds most
   of it, "touch" two mappings that fit one at a time, not together. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    size_t mb = 1 << 20;
    if (!strcmp(mode, "map")) {
        void *p = mmap(NULL, 100 * mb, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        printf("mmap 100 MiB: %s\n", p == MAP_FAILED ? strerror(errno) : "ok");
        void *brk0 = sbrk(0);
        printf("sbrk 100 MiB: %s\n", sbrk(100 * mb) == (void *)-1 ? strerror(errno) : "ok");
        printf("heap unchanged: %d\n", sbrk(0) == brk0);
        p = mmap(NULL, 8 * mb, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        printf("mmap 8 MiB: %s\n", p == MAP_FAILED ? strerror(errno) : "ok");
        return 0;
    }
    if (!strcmp(mode, "fork")) {
        char *p = mmap(NULL, 40 * mb, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        memset(p, 1, 40 * mb);
        pid_t pid = fork();
        if (pid == 0) _exit(0);
        printf("fork holding 40 MiB: %s\n", pid < 0 ? strerror(errno) : "ok");
        return 0;
    }
    /* each mapping alone fits (mappings cost nothing until touched); both do not */
    char *a = mmap(NULL, 40 * mb, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *b = mmap(NULL, 40 * mb, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("two mappings of 40 MiB: %d\n", a != MAP_FAILED && b != MAP_FAILED);
    fflush(stdout);
    memset(a, 1, 40 * mb);
    memset(b, 1, 40 * mb);
    printf("not reached\n");
    return 0;
}
