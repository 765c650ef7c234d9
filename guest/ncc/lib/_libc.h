/* ncc's C library: every declaration, included by each standard header. */
#ifndef __NCC_LIBC_H
#define __NCC_LIBC_H

#define NULL ((void *)0)
#define EOF (-1)
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
#define BUFSIZ 4096

typedef unsigned long size_t;
typedef long ssize_t;
typedef long off_t;
typedef long ptrdiff_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long int64_t;
typedef unsigned long uint64_t;

/* arguments live in 16-byte stack slots (see ncc.c) */
typedef char *va_list;
#define va_start(ap, last) ((ap) = __va_area())
#define va_arg(ap, ty) (*(ty *)(((ap) = (ap) + 16) - 16))
#define va_end(ap) ((void)0)
#define va_copy(d, s) ((d) = (s))

#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define CHAR_MIN 0
#define CHAR_MAX 255
#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295U
#define LONG_MIN (-9223372036854775807L - 1)
#define LONG_MAX 9223372036854775807L
#define ULONG_MAX 18446744073709551615UL
#define INT32_MAX INT_MAX
#define INT32_MIN INT_MIN
#define UINT32_MAX UINT_MAX
#define INT64_MAX LONG_MAX
#define UINT64_MAX ULONG_MAX

#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR 2
#define O_CREAT 64
#define O_EXCL 128
#define O_TRUNC 512
#define O_APPEND 1024
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2

typedef struct FILE FILE;
struct FILE {
    int fd;
    int unbuf;
    char *wbuf;
    int wn;
    char *rbuf;
    int rn;
    int rpos;
    int eof;
    int err;
    int unget;
};
extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
extern int errno;

int printf(char *fmt, ...);
int fprintf(FILE *f, char *fmt, ...);
int sprintf(char *buf, char *fmt, ...);
int snprintf(char *buf, size_t n, char *fmt, ...);
int vprintf(char *fmt, va_list ap);
int vfprintf(FILE *f, char *fmt, va_list ap);
int vsprintf(char *buf, char *fmt, va_list ap);
int vsnprintf(char *buf, size_t n, char *fmt, va_list ap);
int putchar(int c);
int puts(char *s);
int fputs(char *s, FILE *f);
int fputc(int c, FILE *f);
int putc(int c, FILE *f);
int fflush(FILE *f);
int getchar(void);
int fgetc(FILE *f);
int getc(FILE *f);
int ungetc(int c, FILE *f);
char *fgets(char *s, int n, FILE *f);
FILE *fopen(char *path, char *mode);
int fclose(FILE *f);
size_t fread(void *p, size_t size, size_t n, FILE *f);
size_t fwrite(void *p, size_t size, size_t n, FILE *f);
int feof(FILE *f);

void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);
void exit(int code);
void abort(void);
int atoi(char *s);
long atol(char *s);
long strtol(char *s, char **end, int base);
unsigned long strtoul(char *s, char **end, int base);
int abs(int x);
long labs(long x);
void qsort(void *base, size_t n, size_t size, int (*cmp)(void *, void *));
int rand(void);
void srand(unsigned seed);
char *getenv(char *name);

void *memcpy(void *d, void *s, size_t n);
void *memmove(void *d, void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(void *a, void *b, size_t n);
void *memchr(void *s, int c, size_t n);
size_t strlen(char *s);
int strcmp(char *a, char *b);
int strncmp(char *a, char *b, size_t n);
char *strcpy(char *d, char *s);
char *strncpy(char *d, char *s, size_t n);
char *strcat(char *d, char *s);
char *strncat(char *d, char *s, size_t n);
char *strchr(char *s, int c);
char *strrchr(char *s, int c);
char *strstr(char *h, char *n);
char *strdup(char *s);

ssize_t read(int fd, void *buf, size_t n);
ssize_t write(int fd, void *buf, size_t n);
int open(char *path, int flags, ...);
int close(int fd);
off_t lseek(int fd, off_t off, int whence);
int unlink(char *path);
void _exit(int code);
int getpid(void);

int isdigit(int c);
int isalpha(int c);
int isalnum(int c);
int isspace(int c);
int isupper(int c);
int islower(int c);
int isxdigit(int c);
int isprint(int c);
int ispunct(int c);
int toupper(int c);
int tolower(int c);

#endif
