/* stat for programs that include <sys/stat.h> (the library's functions are __ncc_*: see libc.c) */
#ifndef __NCC_STAT_H
#define __NCC_STAT_H
#include "_libc.h"

typedef unsigned int mode_t;
struct timespec { long tv_sec; long tv_nsec; };
/* arm64 Linux's struct stat */
struct stat {
    unsigned long st_dev; unsigned long st_ino; unsigned int st_mode; unsigned int st_nlink;
    unsigned int st_uid; unsigned int st_gid; unsigned long st_rdev; unsigned long __pad1;
    long st_size; int st_blksize; int __pad2; long st_blocks;
    struct timespec st_atim; struct timespec st_mtim; struct timespec st_ctim; unsigned int __unused[2];
};
#define S_IFMT 0170000
#define S_IFDIR 0040000
#define S_IFREG 0100000
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)

int __ncc_stat(char *path, void *st);
int __ncc_fstat(int fd, void *st);
#define stat(path, st) __ncc_stat(path, st)
#define fstat __ncc_fstat
#endif
