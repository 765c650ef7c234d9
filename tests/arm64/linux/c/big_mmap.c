/* A 2,000 MiB anonymous mapping touched at three bytes only: must not cost the host 2 GB. */
#include <stdio.h>
#include <sys/mman.h>

int main(void) {
    size_t size = 2000ul << 20;
    char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) { perror("mmap"); return 1; }
    p[0] = 1; p[size / 2] = 2; p[size - 1] = 3;
    printf("%d %d %d %d\n", p[0], p[size / 2], p[size - 1], p[12345678]);
    return munmap(p, size);
}
