/* Random system calls with random and boundary arguments.
 *
 *   syscall_fuzz compare SEED COUNT   calls from a list whose results are not
 *                                     host-dependent; prints "nr ret" per call
 *                                     (compared with qemu-aarch64 by the test)
 *   syscall_fuzz all SEED COUNT       any number, in forked batches (a batch
 *                                     may kill itself); only run on nCPU
 *
 * Arguments come from a pool: 0, -1, small and huge numbers, pointers into a
 * scratch mapping, pointers that straddle its end into an unmapped page, a
 * read-only page, unmapped addresses, iovec arrays with good and bad entries,
 * timespecs with valid and invalid fields.  Everything derives from SEED, so
 * both machines issue the same calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SCRATCH 0x40000000UL
#define PAGE 4096UL
#define DATA_PAGES 3                      /* RW pages; then one unmapped, then one read-only */
#define RO_PAGE (SCRATCH + (DATA_PAGES + 1) * PAGE)
#define OUT_FD 1023

static uint64_t state;
static uint64_t next(void) {              /* xorshift64* */
    state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
    return state * 2685821657736338717ULL;
}

/* Syscalls whose return value is the same on any Linux host for the same
 * arguments, with the fds, paths and memory this program sets up. */
static const int COMPARE[] = {
    23, 24, 25, 57, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 80, 82, 83,
    113, 124, 134, 135, 136, 160, 165, 169, 179,
};
#define NCOMPARE (sizeof COMPARE / sizeof COMPARE[0])
/* Never issued in "all" mode: they would end or multiply the fuzzer itself
 * (exit, exit_group, clone, clone3, kill, tkill, tgkill, rt_sigreturn),
 * or can wait for ever (futex, rt_sigsuspend, ppoll, pselect6, and pipe2,
 * whose empty pipe a later read would wait on). */
static int never_all(long nr) {
    return nr == 93 || nr == 94 || nr == 220 || nr == 435 || nr == 129 || nr == 130 || nr == 131 ||
           nr == 139 || nr == 98 || nr == 133 || nr == 73 || nr == 72 || nr == 59;
}

/* The data pages are refilled before every call from a fixed pattern, so
 * that what one call wrote (a host name, a time, random bytes: not the same
 * on every host) never becomes the next call's arguments. */
static unsigned char pattern[DATA_PAGES * PAGE];

static void reset_scratch(void) {
    unsigned char *p = (unsigned char *)SCRATCH;
    memcpy(p, pattern, sizeof pattern);
    for (unsigned long i = 0; i < PAGE; i++) p[i] = 0;
    /* iovec arrays at +0x100: good, good / good, unmapped / huge len / SIZE_MAX len */
    uint64_t *v = (uint64_t *)(SCRATCH + 0x100);
    v[0] = SCRATCH + 0x800; v[1] = 16;  v[2] = SCRATCH + 0x900;      v[3] = 32;
    v[4] = SCRATCH + 0x800; v[5] = 8;   v[6] = SCRATCH + 5 * PAGE;    v[7] = 8;
    v[8] = SCRATCH + 0x800; v[9] = 1ULL << 40;
    v[10] = SCRATCH + 0x800; v[11] = UINT64_MAX;
    v[12] = 0; v[13] = 0;
    /* timespecs at +0x200: {0,0} {1,0} {0,-1} {INT64_MAX,0} {0,1e9} */
    int64_t *t = (int64_t *)(SCRATCH + 0x200);
    t[0] = 0; t[1] = 0; t[2] = 0; t[3] = 1000; t[4] = 0; t[5] = -1;
    t[6] = INT64_MAX; t[7] = 0; t[8] = 0; t[9] = 1000000000;
    /* a few short strings at +0x300 (relative names that do not exist) */
    strcpy((char *)SCRATCH + 0x300, "nonexistent");
    strcpy((char *)SCRATCH + 0x320, "fuzz.dat/rest");
}

static uint64_t arg(void) {
    switch (next() % 26) {
    case 0: return 0;
    case 1: return UINT64_MAX;
    case 2: return 1;
    case 3: return next() % 8;
    case 4: return next() % 6;                            /* the fuzzer's own fds */
    case 5: return 0xffffffffUL;
    case 6: return 0x7fffffffUL;
    case 7: return 0x80000000UL;
    case 8: return 1ULL << 40;
    case 9: return 1ULL << 63;
    case 10: return INT64_MAX;
    case 11: return SCRATCH + PAGE + next() % (2 * PAGE);   /* inside the data pages */
    case 12: return SCRATCH + DATA_PAGES * PAGE - 1 - next() % 16;   /* straddles the end */
    case 13: return SCRATCH + DATA_PAGES * PAGE + next() % PAGE;     /* unmapped */
    case 14: return RO_PAGE + next() % PAGE;                         /* read-only */
    case 15: return SCRATCH + 0x100 + 16 * (next() % 7);   /* an iovec array */
    case 16: return SCRATCH + 0x200 + 16 * (next() % 5);   /* a timespec */
    case 17: return SCRATCH + 0x300 + 0x20 * (next() % 2); /* a path */
    case 18: return next() % 1000;
    case 19: return 4096;
    case 20: return 8;
    case 21: return 16;
    case 22: return next() % 64;
    case 23: return next();
    case 24: return (uint64_t)-(int64_t)(next() % 4096); /* -errno-like */
    default: return 0xdeadbeef000ULL;                    /* unmapped, high */
    }
}

/* fds 0-4 are all the file fuzz.dat (stdin, stdout and stderr are the host's:
 * the calls must not touch them), opened with different access modes. */
static void reset_fds(void) {
    for (int fd = 0; fd < 64; fd++) close(fd);
    /* O_TRUNC: a file grown past what one call moves (1 MiB on nCPU) would not stay the same */
    static const int modes[5] = {O_RDWR | O_TRUNC, O_WRONLY | O_APPEND, O_RDWR, O_RDWR, O_RDONLY};
    for (int fd = 0; fd < 5; fd++)
        if (open("fuzz.dat", modes[fd] | O_CREAT, 0644) != fd) { dprintf(OUT_FD, "fd setup failed\n"); _exit(3); }
}

static long pick_all(void) {
    for (;;) {
        long nr;
        uint64_t r = next() % 16;
        if (r < 13) nr = (long)(next() % 300);
        else if (r == 13) nr = (long)(next() % 100000);
        else if (r == 14) nr = -(long)(next() % 3) - 1;
        else nr = 400 + (long)(next() % 100);
        if (!never_all(nr)) return nr;
    }
}

static void one(long nr, int print) {
    uint64_t a[6];
    for (int i = 0; i < 6; i++) a[i] = arg();
    if (next() % 2) a[0] = next() % 6;                    /* most calls take a descriptor first */
    /* dup3's flags are an int to Linux but 64 bits to qemu: with high bits set the two would
     * answer differently and their descriptor tables part ways, so keep them to 32 bits */
    if (nr == 24) a[2] &= 0xffffffffULL;
    reset_scratch();
    /* the access modes of the descriptors in a0 and a1 (-1: not open), for the test's check order rule */
    long fl0 = fcntl((int)a[0], F_GETFL), fl1 = fcntl((int)a[1], F_GETFL);
    /* does an iovec array of ours (readv, writev, preadv, pwritev) hold a negative length? */
    int iovneg = 0;
    if ((nr == 65 || nr == 66 || nr == 69 || nr == 70) && a[1] >= SCRATCH && a[1] < SCRATCH + DATA_PAGES * PAGE && a[2] <= 1024)
        for (uint64_t i = 0; i < a[2] && a[1] + 16 * i + 16 <= SCRATCH + DATA_PAGES * PAGE; i++)
            iovneg |= (int64_t)((uint64_t *)a[1])[2 * i + 1] < 0;
    long ret = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
    if (ret == -1) ret = -(long)errno;
    if ((nr == 23 || nr == 24 || nr == 25) && ret >= 64 && ret < 1 << 20 && ret != OUT_FD)
        close((int)ret);                                 /* keep the fd table small */
    if (print) dprintf(OUT_FD, "%ld %lx %lx %lx %lx %lx %lx %ld %ld %d -> %ld\n", nr, a[0], a[1], a[2], a[3], a[4], a[5],
                       fl0 < 0 ? -1 : fl0 & O_ACCMODE, fl1 < 0 ? -1 : fl1 & O_ACCMODE, iovneg, ret);
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: syscall_fuzz compare|all SEED COUNT\n"); return 2; }
    int compare = strcmp(argv[1], "compare") == 0;
    state = strtoull(argv[2], 0, 0) * 0x9E3779B97F4A7C15ULL + 1;
    long count = strtol(argv[3], 0, 0);
    if (fcntl(1, F_DUPFD, OUT_FD) != OUT_FD) return 4;
    void *m = mmap((void *)SCRATCH, (DATA_PAGES + 2) * PAGE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (m != (void *)SCRATCH) return 5;
    munmap((void *)(SCRATCH + DATA_PAGES * PAGE), PAGE);
    mprotect((void *)RO_PAGE, PAGE, PROT_READ);
    for (unsigned long i = 0; i < sizeof pattern; i++) pattern[i] = (unsigned char)next();
    if (compare) {
        for (long i = 0; i < count; i++) {
            if (i % 50 == 0) reset_fds();
            one(COMPARE[next() % NCOMPARE], 1);
        }
        dprintf(OUT_FD, "done %ld\n", count);
        return 0;
    }
    long batches = (count + 99) / 100, dead = 0;
    for (long b = 0; b < batches; b++) {
        uint64_t seed = next();
        pid_t pid = fork();
        if (pid == 0) {
            state = seed | 1;
            reset_fds();
            for (int i = 0; i < 100; i++) one(pick_all(), 0);
            _exit(0);
        }
        int status = 0;
        if (waitpid(pid, &status, 0) != pid) return 6;
        dead += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    dprintf(OUT_FD, "done %ld batches, %ld ended early\n", batches, dead);
    return 0;
}
