/* eventfd, memfd_create, close_range, membarrier, copy_file_range: results that Linux fixes. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static void show(const char *what, long r) {
    printf("%s = %ld%s%s\n", what, r, r < 0 ? " " : "", r < 0 ? strerror(errno) : "");
}

int main(void) {
    uint64_t v = 3;
    int e = eventfd(0, EFD_NONBLOCK);
    show("eventfd", e >= 0);
    show("read empty", read(e, &v, 8));
    v = 3; show("write 3", write(e, &v, 8));
    v = 4; show("write 4", write(e, &v, 8));
    v = 0; show("read", read(e, &v, 8));
    printf("value %llu\n", (unsigned long long)v);
    show("short read", read(e, &v, 4));
    int s = eventfd(2, EFD_SEMAPHORE | EFD_NONBLOCK);
    for (int i = 0; i < 3; i++) { v = 0; long r = read(s, &v, 8); printf("sem %ld %llu\n", r, (unsigned long long)v); }

    int m = memfd_create("scratch", MFD_CLOEXEC);
    show("memfd", m >= 0);
    show("write", write(m, "hello memfd", 11));
    show("ftruncate", ftruncate(m, 5000));
    struct stat st;
    fstat(m, &st);
    printf("size %lld regular %d\n", (long long)st.st_size, S_ISREG(st.st_mode));
    char buf[32] = {0};
    show("pread", pread(m, buf, 5, 6));
    printf("got '%s' cloexec %d\n", buf, (fcntl(m, F_GETFD) & FD_CLOEXEC) != 0);

    int a = open("src.txt", O_CREAT | O_RDWR | O_TRUNC, 0644);
    write(a, "0123456789abcdef", 16);
    int b = open("dst.txt", O_CREAT | O_RDWR | O_TRUNC, 0644);
    off64_t in = 4;
    show("copy_file_range", copy_file_range(a, &in, b, NULL, 8, 0));
    printf("in offset %lld\n", (long long)in);
    memset(buf, 0, sizeof buf);
    show("pread dst", pread(b, buf, 31, 0));
    printf("dst '%s'\n", buf);
    show("bad flags", copy_file_range(a, NULL, b, NULL, 8, 1));

    int base = dup(0);
    dup(0); dup(0); dup(0);
    show("close_range cloexec", syscall(SYS_close_range, base, base + 1, 4));
    printf("cloexec %d %d %d\n", fcntl(base, F_GETFD), fcntl(base + 1, F_GETFD), fcntl(base + 2, F_GETFD));
    show("close_range", syscall(SYS_close_range, base + 1, base + 2, 0));
    printf("open %d %d %d %d\n", fcntl(base, F_GETFD) >= 0, fcntl(base + 1, F_GETFD) >= 0,
           fcntl(base + 2, F_GETFD) >= 0, fcntl(base + 3, F_GETFD) >= 0);
    show("close_range bad", syscall(SYS_close_range, 9, 3, 0));

    long q = syscall(SYS_membarrier, 0, 0);
    printf("membarrier global %d\n", q >= 0 && (q & 1));
    show("membarrier global", syscall(SYS_membarrier, 1, 0));
    show("membarrier bad", syscall(SYS_membarrier, 3, 0));
    return 0;
}
