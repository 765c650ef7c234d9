/* directories for programs that include <dirent.h> (the library's functions are __ncc_*: see libc.c) */
#ifndef __NCC_DIRENT_H
#define __NCC_DIRENT_H
#include "_libc.h"

/* a getdents64 record */
struct dirent { unsigned long d_ino; long d_off; unsigned short d_reclen; unsigned char d_type; char d_name[256]; };
typedef void DIR;

void *__ncc_opendir(char *path);
void *__ncc_readdir(void *dir);
int __ncc_closedir(void *dir);
#define opendir(path) ((DIR *)__ncc_opendir(path))
#define readdir(dir) ((struct dirent *)__ncc_readdir(dir))
#define closedir __ncc_closedir
#endif
