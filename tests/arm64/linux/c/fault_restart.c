/* Instructions that fault on a page not yet backed (first touch) or shared
   copy-on-write (after fork) run again exactly once: no register or memory
   effect of the first, faulting attempt may remain. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PG 4096

static char *fresh(int pages) {
    return mmap(NULL, pages * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static void loads(void) {
    char *m = fresh(2);
    *(uint64_t *)(m + PG - 8) = 0x1122334455667788ull;        /* page 0 backed, page 1 not yet */
    uint64_t x0, x1;
    __asm__ volatile("mov x0, %2\n ldp x0, x1, [x0]\n mov %0, x0\n mov %1, x1"
                     : "=r"(x0), "=r"(x1) : "r"(m + PG - 8) : "x0", "x1", "memory");
    printf("ldp base=dest across pages: %llx %llx\n", (unsigned long long)x0, (unsigned long long)x1);
    char *n = fresh(2);
    uint64_t a, b, base = (uint64_t)(n + PG - 16);
    __asm__ volatile("ldp %0, %1, [%2, #16]!" : "=&r"(a), "=&r"(b), "+r"(base) : : "memory");
    printf("ldp pre-index on an untouched page: %llu %llu moved=%lld\n", (unsigned long long)a,
           (unsigned long long)b, (long long)(base - (uint64_t)(n + PG - 16)));
}

static void stores_in_child(char *m) {
    /* m: 2 pages shared copy-on-write with the parent */
    uint64_t base = (uint64_t)(m + PG - 8);
    __asm__ volatile("mov x2, #0x1111\n mov x3, #0x2222\n stp x2, x3, [%0], #16" : "+r"(base) : : "x2", "x3", "memory");
    printf("child stp post-index across COW pages: %llx %llx moved=%lld\n",
           (unsigned long long)*(uint64_t *)(m + PG - 8), (unsigned long long)*(uint64_t *)(m + PG),
           (long long)(base - (uint64_t)(m + PG - 8)));
}

static void vector_stores(void) {
    char *m = fresh(2);
    uint8_t src[64];
    for (int i = 0; i < 64; i++) src[i] = (uint8_t)(i * 3 + 1);
    uint64_t base = (uint64_t)(m + PG - 24);
    __asm__ volatile("ld1 {v0.16b, v1.16b, v2.16b, v3.16b}, [%1]\n"
                     "st1 {v0.16b, v1.16b, v2.16b, v3.16b}, [%0], #64"
                     : "+r"(base) : "r"(src) : "v0", "v1", "v2", "v3", "memory");
    printf("st1 x4 across untouched pages: same=%d moved=%lld\n", memcmp(m + PG - 24, src, 64) == 0,
           (long long)(base - (uint64_t)(m + PG - 24)));
    char *k = fresh(2);
    uint64_t sp_save, top = (uint64_t)(k + PG);
    __asm__ volatile("mov %0, sp\n mov sp, %1\n"
                     "movi v4.16b, #7\n movi v5.16b, #9\n stp q4, q5, [sp, #-16]!\n"
                     "mov %1, sp\n mov sp, %0"
                     : "=&r"(sp_save), "+r"(top) : : "v4", "v5", "memory");
    printf("stp q with sp base across untouched pages: sp moved=%lld bytes %d %d\n",
           (long long)(top - (uint64_t)(k + PG)), k[PG - 16], k[PG + 15]);
}

static void atomics_in_child(uint64_t *w) {
    uint64_t old, add = 5;
    __asm__ volatile("ldadd %2, %0, [%1]" : "=&r"(old) : "r"(w), "r"(add) : "memory");
    printf("child ldadd on COW page: old=%llu now=%llu\n", (unsigned long long)old, (unsigned long long)*w);
    uint64_t expect = w[1], repl = 99;
    __asm__ volatile("cas %0, %2, [%1]" : "+r"(expect) : "r"(w + 1), "r"(repl) : "memory");
    printf("child cas: old=%llu now=%llu\n", (unsigned long long)expect, (unsigned long long)w[1]);
    unsigned tries = 0; uint64_t v;
    unsigned fail;
    do {
        tries++;
        __asm__ volatile("ldxr %0, [%2]\n add %0, %0, #1\n stxr %w1, %0, [%2]" : "=&r"(v), "=&r"(fail) : "r"(w + 2) : "memory");
    } while (fail);
    printf("child ldxr/stxr: now=%llu\n", (unsigned long long)w[2]);
}

int main(void) {
    loads();
    vector_stores();
    char *m = fresh(2);
    memset(m, 0x5a, 2 * PG);
    uint64_t *w = (uint64_t *)fresh(1);
    fflush(stdout);
    w[0] = 10; w[1] = 20; w[2] = 30;
    pid_t pid = fork();
    if (pid == 0) {
        stores_in_child(m);
        atomics_in_child(w);
        fflush(stdout);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    printf("parent after child: %llx %llx %llu %llu %llu status=%d\n", (unsigned long long)*(uint64_t *)(m + PG - 8),
           (unsigned long long)*(uint64_t *)(m + PG), (unsigned long long)w[0], (unsigned long long)w[1],
           (unsigned long long)w[2], status);
    uint64_t old, add = 1;
    __asm__ volatile("ldadd %2, %0, [%1]" : "=&r"(old) : "r"(fresh(1) + 8), "r"(add) : "memory");
    printf("ldadd on an untouched page: old=%llu\n", (unsigned long long)old);
    return 0;
}
