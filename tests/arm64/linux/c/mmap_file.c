/* File-backed and anonymous mmap: MAP_PRIVATE copy-on-write, MAP_SHARED
   write-back (msync, munmap), sharing across fork, MAP_FIXED(_NOREPLACE),
   mprotect (write and execute), madvise(MADV_DONTNEED), mremap. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PG 4096
static sigjmp_buf jb;
static volatile int last_code;
static void on_segv(int sig, siginfo_t *si, void *uc) { (void)uc; last_code = si->si_code; siglongjmp(jb, sig); }

static int file_byte(int fd, off_t at) { unsigned char c = 0; pread(fd, &c, 1, at); return c; }

static int try_write(volatile char *p) {           /* 0 or the signal */
    int r = sigsetjmp(jb, 1);
    if (r == 0) { *p = 1; return 0; }
    return r;
}

typedef int (*fn_t)(void);
static int try_call(void *code, int *out) {
    int r = sigsetjmp(jb, 1);
    if (r == 0) { *out = ((fn_t)code)(); return 0; }
    return r;
}

int main(void) {
    struct sigaction sa; memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv; sa.sa_flags = SA_SIGINFO; sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);

    int fd = open("data.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
    char buf[3 * PG];
    for (int i = 0; i < 3 * PG; i++) buf[i] = (char)('a' + i % 26);
    write(fd, buf, sizeof buf - 100);                /* the last page is partial */

    /* private: reads the file, writes stay private */
    char *p = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    printf("private: %c%c%c last=%d beyond=%d\n", p[0], p[PG], p[2 * PG + 5], p[3 * PG - 101], p[3 * PG - 50]);
    p[1] = 'Z';
    printf("private write: map=%c file=%c\n", p[1], file_byte(fd, 1));
    /* offset mapping */
    char *q = mmap(NULL, PG, PROT_READ, MAP_PRIVATE, fd, PG);
    printf("offset map: %c (want %c)\n", q[0], buf[PG]);
    munmap(q, PG);

    /* shared: writes reach the file on msync and on munmap */
    char *s = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    s[2] = 'S';
    msync(s, 2 * PG, MS_SYNC);
    printf("after msync: %c\n", file_byte(fd, 2));
    s[PG + 3] = 'T';
    munmap(s, 2 * PG);
    printf("after munmap: %c\n", file_byte(fd, PG + 3));

    /* shared file mapping and shared anonymous memory across fork; private stays private */
    s = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int *anon = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int *priv = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    *anon = 1; *priv = 1; s[10] = 'p';
    pid_t pid = fork();
    if (pid == 0) { *anon = 42; *priv = 42; s[10] = 'c'; p[1] = 'C'; _exit(0); }
    waitpid(pid, NULL, 0);
    printf("after child: shared anon=%d private=%d shared file=%c private file=%c\n", *anon, *priv, s[10], p[1]);
    munmap(s, PG);
    printf("file after both: %c\n", file_byte(fd, 10));

    /* a shared mapping made read-only cannot be made writable through a read-only fd */
    int ro = open("data.bin", O_RDONLY);
    char *r = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0);
    printf("shared rw of O_RDONLY: %s\n", r == MAP_FAILED ? strerror(errno) : "mapped");
    r = mmap(NULL, PG, PROT_READ, MAP_SHARED, ro, 0);
    printf("mprotect rw: %s\n", mprotect(r, PG, PROT_READ | PROT_WRITE) ? strerror(errno) : "ok");
    printf("write to read-only shared: signal %d code %d\n", try_write(r + 1), last_code);

    /* MAP_FIXED replaces, MAP_FIXED_NOREPLACE refuses */
    char *a = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(a, 'x', 4 * PG);
    char *b = mmap(a + PG, PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
    printf("fixed: same=%d %c %c %c\n", b == a + PG, a[0], a[PG], a[2 * PG]);
    char *c = mmap(a, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    printf("noreplace kept the page: %d %c\n", c != a, a[0]);     /* qemu-user maps elsewhere, Linux fails */
    printf("write to read-only page: signal %d code %d\n", try_write(a + PG + 5), last_code);
    printf("write next to it: signal %d\n", try_write(a + 2 * PG));

    /* execute permission */
    unsigned int code[2] = {0x52800540u, 0xd65f03c0u};          /* mov w0, #42; ret */
    unsigned int *x = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memcpy(x, code, sizeof code);
    __builtin___clear_cache((char *)x, (char *)x + sizeof code);
    int out = 0;
    int sig = try_call(x, &out);
    printf("call rw page: signal %d code %d\n", sig, last_code);
    mprotect(x, PG, PROT_READ | PROT_EXEC);
    out = 0; sig = try_call(x, &out);
    printf("call rx page: signal %d result %d\n", sig, out);
    printf("write rx page: signal %d\n", try_write((char *)x));

    /* madvise(MADV_DONTNEED): anonymous private reads zero, private file reads the file again */
    memset(a + 2 * PG, 'y', PG);
    madvise(a + 2 * PG, PG, MADV_DONTNEED);
    printf("dontneed anon: %d %d\n", a[2 * PG], a[3 * PG]);
    madvise(p, PG, MADV_DONTNEED);
    printf("dontneed private file: %c\n", p[1]);
    *anon = 7;
    madvise(anon, PG, MADV_DONTNEED);
    printf("dontneed shared anon: %d\n", *anon);

    /* mremap keeps the contents, moving if it must */
    char *m = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *blocker = mmap(m + PG, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    m[100] = 'm';
    char *m2 = mremap(m, PG, 3 * PG, MREMAP_MAYMOVE);
    printf("mremap: moved=%d blocker=%d %c %d\n", m2 != m, blocker != MAP_FAILED, m2[100], m2[2 * PG]);
    printf("old range: signal %d\n", try_write(m));
    printf("munmap unaligned: %s\n", munmap(m2 + 1, PG) ? strerror(errno) : "ok");
    printf("mprotect unmapped: %s\n", mprotect(m, PG, PROT_READ) ? strerror(errno) : "ok");
    printf("msync unmapped: %s\n", msync(m, PG, MS_SYNC) ? strerror(errno) : "ok");
    close(fd);
    return 0;
}
