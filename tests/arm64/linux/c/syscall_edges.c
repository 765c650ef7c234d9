/* System calls at their edges: each line is "name result" (-errno on failure).
 * The test knows Linux's answer for each (some would hang or hurt under qemu). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static long sc(long nr, long a, long b, long c, long d, long e) {
    long r = syscall(nr, a, b, c, d, e, 0);
    return r == -1 ? -errno : r;
}

static void show(const char *name, long r) { printf("%s %ld\n", name, r); fflush(stdout); }

int main(void) {
    int fd = open("edges.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
    char buf[64] = "0123456789abcdef";
    write(fd, buf, 16);

    struct iovec big = {buf, 1ULL << 40}, max = {buf, SIZE_MAX};
    show("preadv_2^40", sc(SYS_preadv, fd, (long)&big, 1, 0, 0));
    show("preadv_SIZE_MAX", sc(SYS_preadv, fd, (long)&max, 1, 0, 0));

    struct iovec second_bad[2] = {{buf, 5}, {(void *)0xdead0000, 5}};
    show("writev_second_bad", sc(SYS_writev, fd, (long)second_bad, 2, 0, 0));
    struct iovec first_bad[2] = {{(void *)0xdead0000, 5}, {buf, 5}};
    show("writev_first_bad", sc(SYS_writev, fd, (long)first_bad, 2, 0, 0));

    /* 1,024 iovecs of 16 MiB each, all the same mapping: moves 1 MiB, not 16 GiB */
    size_t len = 16 << 20;
    char *region = mmap(0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    static struct iovec many[1024];
    for (int i = 0; i < 1024; i++) { many[i].iov_base = region; many[i].iov_len = len; }
    show("writev_amplified", sc(SYS_writev, fd, (long)many, 1024, 0, 0));
    show("readv_amplified", sc(SYS_preadv, fd, (long)many, 1024, 0, 0));
    show("writev_1025", sc(SYS_writev, fd, (long)many, 1025, 0, 0));

    show("tgkill_-1_-1_9", sc(SYS_tgkill, -1, -1, 9, 0, 0));
    show("tkill_0_9", sc(SYS_tkill, 0, 9, 0, 0, 0));

    struct timespec forever = {INT64_MAX, 0}, bad = {0, 1000000000};
    show("nanosleep_bad_nsec", sc(SYS_nanosleep, (long)&bad, 0, 0, 0, 0));
    show("nanosleep_INT64_MAX", sc(SYS_nanosleep, (long)&forever, 0, 0, 0, 0));
    struct timespec now;
    show("clock_gettime_after", sc(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&now, 0, 0, 0));
    printf("monotonic_sec_positive %d\n", now.tv_sec > 0);

    /* execve with 9 MiB of arguments: E2BIG (Linux allows a quarter of the 8 MiB stack) */
    size_t n = 9 << 20, each = 100000;
    char *text = malloc(n + 1);
    memset(text, 'a', n);
    size_t count = n / each;
    char **argv = calloc(count + 2, sizeof *argv);
    argv[0] = "/prog";
    for (size_t i = 0; i < count; i++) { argv[i + 1] = text + i * each; text[i * each + each - 1] = 0; }
    show("execve_9MiB", sc(SYS_execve, (long)"/prog", (long)argv, 0, 0, 0));
    char *long_arg = malloc(200000);
    memset(long_arg, 'b', 199999); long_arg[199999] = 0;
    char *argv2[] = {"/prog", long_arg, 0};
    show("execve_200KB_arg", sc(SYS_execve, (long)"/prog", (long)argv2, 0, 0, 0));

    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d/rest", fd);
    show("proc_fd_file_rest", sc(SYS_openat, AT_FDCWD, (long)path, O_RDONLY, 0, 0));
    mkdir("sub", 0755);
    close(open("sub/inner", O_CREAT | O_WRONLY, 0644));
    int dir = open("sub", O_RDONLY | O_DIRECTORY);
    snprintf(path, sizeof path, "/proc/self/fd/%d/inner", dir);
    long inner = sc(SYS_openat, AT_FDCWD, (long)path, O_RDONLY, 0, 0);
    printf("proc_fd_dir_inner_opens %d\n", inner >= 0);
    snprintf(path, sizeof path, "/proc/self/fd/%d/missing", dir);
    show("proc_fd_dir_missing", sc(SYS_openat, AT_FDCWD, (long)path, O_RDONLY, 0, 0));

    /* descriptor counts from the guest must not become host loops */
    struct timespec zero = {0, 0};
    show("pselect6_huge_nfds", sc(SYS_pselect6, 0x7fffffff, 0, 0, 0, (long)&zero));
    show("ppoll_huge_nfds", sc(SYS_ppoll, (long)buf, 1L << 40, (long)&zero, 0, 0));

    char *ro = mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    lseek(fd, 0, SEEK_SET);
    show("read_into_readonly", sc(SYS_read, fd, (long)ro, 4, 0, 0));
    show("offset_kept", lseek(fd, 0, SEEK_CUR));
    return 0;
}
