/* ncc's C library, written in the subset ncc compiles. System calls go through
 * the compiler's __syscall(number, args...) builtin. */
#include "_libc.h"

int errno;

static long __check(long r) {
    if (r < 0 && r > -4096) {
        errno = -r;
        return -1;
    }
    return r;
}

ssize_t read(int fd, void *buf, size_t n) { return __check(__syscall(63, fd, buf, n)); }
ssize_t write(int fd, void *buf, size_t n) { return __check(__syscall(64, fd, buf, n)); }
int close(int fd) { return __check(__syscall(57, fd)); }
off_t lseek(int fd, off_t off, int whence) { return __check(__syscall(62, fd, off, whence)); }
int unlink(char *path) { return __check(__syscall(35, -100, path, 0)); }
int getpid(void) { return __syscall(172); }
void _exit(int code) {
    for (;;) __syscall(94, code);
}

int open(char *path, int flags, ...) {
    va_list ap;
    int mode;
    va_start(ap, flags);
    mode = va_arg(ap, int);
    va_end(ap);
    if (!(flags & O_CREAT)) mode = 0;
    return __check(__syscall(56, -100, path, flags, mode));
}

/* ---------------------------------------------------------- sockets, stat, directories
 * Their names carry the __ncc_ prefix: the library and the program are one
 * translation unit, so only a program that includes <sys/socket.h>,
 * <sys/stat.h> or <dirent.h> sees the standard names (macros, see _net.h,
 * _stat.h and _dirent.h), and any other program may use them for its own. */

int __ncc_socket(int domain, int type, int protocol) { return __check(__syscall(198, domain, type, protocol)); }
int __ncc_bind(int fd, void *addr, unsigned len) { return __check(__syscall(200, fd, addr, len)); }
int __ncc_listen(int fd, int backlog) { return __check(__syscall(201, fd, backlog)); }
int __ncc_accept(int fd, void *addr, unsigned *len) { return __check(__syscall(202, fd, addr, len)); }
int __ncc_connect(int fd, void *addr, unsigned len) { return __check(__syscall(203, fd, addr, len)); }
int __ncc_setsockopt(int fd, int level, int name, void *value, unsigned len) {
    return __check(__syscall(208, fd, level, name, value, len));
}
int __ncc_shutdown(int fd, int how) { return __check(__syscall(210, fd, how)); }
ssize_t __ncc_send(int fd, void *buf, size_t n, int flags) { return __check(__syscall(206, fd, buf, n, flags, 0, 0)); }
ssize_t __ncc_recv(int fd, void *buf, size_t n, int flags) { return __check(__syscall(207, fd, buf, n, flags, 0, 0)); }
unsigned short __ncc_htons(unsigned short x) { return (unsigned short)((x >> 8) | (x << 8)); }
unsigned int __ncc_htonl(unsigned int x) {
    return (x >> 24) | ((x >> 8) & 0xff00) | ((x << 8) & 0xff0000) | (x << 24);
}

int __ncc_stat(char *path, void *st) { return __check(__syscall(79, -100, path, st, 0)); }
int __ncc_fstat(int fd, void *st) { return __check(__syscall(80, fd, st)); }

/* a directory stream: getdents64 records, read 4 KiB at a time */
typedef struct __NccDir __NccDir;
struct __NccDir {
    int fd;
    int pos;
    int len;
    char buf[4096];
};

void *__ncc_opendir(char *path) {
    __NccDir *d;
    int fd = __check(__syscall(56, -100, path, 16384, 0));        /* O_RDONLY | O_DIRECTORY (arm64: 040000) */
    if (fd < 0) return 0;
    d = malloc(sizeof(__NccDir));
    if (!d) {
        close(fd);
        return 0;
    }
    d->fd = fd;
    d->pos = 0;
    d->len = 0;
    return d;
}

void *__ncc_readdir(void *dir) {
    __NccDir *d = dir;
    char *e;
    if (d->pos >= d->len) {
        d->len = __check(__syscall(61, d->fd, d->buf, sizeof(d->buf)));
        d->pos = 0;
        if (d->len <= 0) return 0;
    }
    e = d->buf + d->pos;
    d->pos += *(unsigned short *)(e + 16);                        /* d_reclen */
    return e;
}

int __ncc_closedir(void *dir) {
    __NccDir *d = dir;
    int r = close(d->fd);
    free(d);
    return r;
}

/* ---------------------------------------------------------- memory */

static char *__heap_cur;
static char *__heap_end;
static long *__free_lists[48];

static char *__map(long n) {
    long r = __syscall(222, 0, n, 3, 0x22, -1, 0);
    if (r < 0 && r > -4096) return 0;
    return (char *)r;
}

/* blocks are powers of two with a 16-byte header holding the size class */
void *malloc(size_t n) {
    int c = 5;
    long sz;
    long *b;
    while ((1UL << c) < n + 16) c++;
    if (c >= 47) return 0;
    sz = 1L << c;
    if (__free_lists[c]) {
        b = __free_lists[c];
        __free_lists[c] = (long *)b[1];
    } else if (sz >= (1L << 20)) {
        b = (long *)__map(sz);
        if (!b) return 0;
    } else {
        if (__heap_cur + sz > __heap_end) {
            __heap_cur = __map(1L << 22);
            if (!__heap_cur) return 0;
            __heap_end = __heap_cur + (1L << 22);
        }
        b = (long *)__heap_cur;
        __heap_cur = __heap_cur + sz;
    }
    b[0] = c;
    return b + 2;
}

void free(void *p) {
    long *b;
    if (!p) return;
    b = (long *)p - 2;
    b[1] = (long)__free_lists[b[0]];
    __free_lists[b[0]] = b;
}

void *calloc(size_t n, size_t size) {
    void *p = malloc(n * size);
    if (p) memset(p, 0, n * size);
    return p;
}

void *realloc(void *p, size_t n) {
    long *b;
    void *q;
    size_t old;
    if (!p) return malloc(n);
    b = (long *)p - 2;
    old = (1UL << b[0]) - 16;
    if (n <= old) return p;
    q = malloc(n);
    if (!q) return 0;
    memcpy(q, p, old);
    free(p);
    return q;
}

/* ---------------------------------------------------------- strings */

void *memcpy(void *d, void *s, size_t n) {
    char *dp = d, *sp = s;
    while (n >= 8) {
        *(long *)dp = *(long *)sp;
        dp = dp + 8;
        sp = sp + 8;
        n = n - 8;
    }
    while (n--) *dp++ = *sp++;
    return d;
}

void *memmove(void *d, void *s, size_t n) {
    char *dp = d, *sp = s;
    if (dp <= sp || dp >= sp + n) return memcpy(d, s, n);
    while (n--) dp[n] = sp[n];
    return d;
}

void *memset(void *d, int c, size_t n) {
    char *p = d;
    while (n--) *p++ = c;
    return d;
}

int memcmp(void *a, void *b, size_t n) {
    unsigned char *p = a, *q = b;
    for (; n; n--, p++, q++)
        if (*p != *q) return *p - *q;
    return 0;
}

void *memchr(void *s, int c, size_t n) {
    unsigned char *p = s;
    for (; n; n--, p++)
        if (*p == (unsigned char)c) return p;
    return 0;
}

size_t strlen(char *s) {
    char *p = s;
    while (*p) p++;
    return p - s;
}

int strcmp(char *a, char *b) {
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(char *a, char *b, size_t n) {
    for (; n; n--, a++, b++) {
        if (*a != *b) return (unsigned char)*a - (unsigned char)*b;
        if (!*a) return 0;
    }
    return 0;
}

char *strcpy(char *d, char *s) {
    char *r = d;
    while ((*d++ = *s++)) ;
    return r;
}

char *strncpy(char *d, char *s, size_t n) {
    size_t i = 0;
    for (; i < n && s[i]; i++) d[i] = s[i];
    for (; i < n; i++) d[i] = 0;
    return d;
}

char *strcat(char *d, char *s) {
    strcpy(d + strlen(d), s);
    return d;
}

char *strncat(char *d, char *s, size_t n) {
    char *p = d + strlen(d);
    while (n-- && *s) *p++ = *s++;
    *p = 0;
    return d;
}

char *strchr(char *s, int c) {
    for (;; s++) {
        if (*s == (char)c) return s;
        if (!*s) return 0;
    }
}

char *strrchr(char *s, int c) {
    char *r = 0;
    for (;; s++) {
        if (*s == (char)c) r = s;
        if (!*s) return r;
    }
}

char *strstr(char *h, char *n) {
    size_t k = strlen(n);
    for (; *h; h++)
        if (!strncmp(h, n, k)) return h;
    return k ? 0 : h;
}

char *strdup(char *s) {
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

/* ---------------------------------------------------------- ctype */

int isdigit(int c) { return c >= '0' && c <= '9'; }
int isupper(int c) { return c >= 'A' && c <= 'Z'; }
int islower(int c) { return c >= 'a' && c <= 'z'; }
int isalpha(int c) { return isupper(c) || islower(c); }
int isalnum(int c) { return isalpha(c) || isdigit(c); }
int isspace(int c) { return c == ' ' || (c >= 9 && c <= 13); }
int isxdigit(int c) { return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int isprint(int c) { return c >= 32 && c < 127; }
int ispunct(int c) { return isprint(c) && !isalnum(c) && c != ' '; }
int toupper(int c) { return islower(c) ? c - 32 : c; }
int tolower(int c) { return isupper(c) ? c + 32 : c; }

/* ---------------------------------------------------------- stdlib */

unsigned long strtoul(char *s, char **end, int base) {
    unsigned long v = 0;
    int neg = 0, d;
    while (isspace(*s)) s++;
    if (*s == '-' || *s == '+') neg = *s++ == '-';
    if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s = s + 2;
        base = 16;
    } else if (base == 0 && s[0] == '0') base = 8;
    else if (base == 0) base = 10;
    for (;; s++) {
        if (isdigit(*s)) d = *s - '0';
        else if (islower(*s)) d = *s - 'a' + 10;
        else if (isupper(*s)) d = *s - 'A' + 10;
        else break;
        if (d >= base) break;
        v = v * base + d;
    }
    if (end) *end = s;
    return neg ? -v : v;
}

long strtol(char *s, char **end, int base) { return strtoul(s, end, base); }
long atol(char *s) { return strtol(s, 0, 10); }
int atoi(char *s) { return strtol(s, 0, 10); }
int abs(int x) { return x < 0 ? -x : x; }
long labs(long x) { return x < 0 ? -x : x; }
char *getenv(char *name) { return 0; }

void qsort(void *base, size_t n, size_t size, int (*cmp)(void *, void *)) {
    char *b = base, t;
    size_t i, j, k;
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size) > 0; j--)
            for (k = 0; k < size; k++) {
                t = b[(j - 1) * size + k];
                b[(j - 1) * size + k] = b[j * size + k];
                b[j * size + k] = t;
            }
}

/* the additive feedback generator of glibc's rand(), so programs print the same numbers */
static int __rtab[34];
static int __rpos = -1;

void srand(unsigned seed) {
    int i;
    long w;
    if (seed == 0) seed = 1;
    __rtab[0] = seed;
    for (i = 1; i < 31; i++) {
        w = (16807L * __rtab[i - 1]) % 2147483647;
        if (w < 0) w = w + 2147483647;
        __rtab[i] = w;
    }
    for (i = 31; i < 34; i++) __rtab[i] = __rtab[i - 31];
    __rpos = 0;
    for (i = 34; i < 344; i++) rand();
}

int rand(void) {
    unsigned int r;
    int i;
    if (__rpos < 0) srand(1);
    /* r[i] = r[i-3] + r[i-31], kept in a ring of 34 */
    i = __rpos;
    r = (unsigned int)__rtab[(i + 31) % 34] + (unsigned int)__rtab[(i + 3) % 34];
    __rtab[i] = r;
    __rpos = (i + 1) % 34;
    return r >> 1;
}

/* ---------------------------------------------------------- stdio */

static char __outbuf[4096];
static char __inbuf[4096];
static FILE __stdin = {0, 0, 0, 0, __inbuf, 0, 0, 0, 0, -1};
static FILE __stdout = {1, 0, __outbuf, 0, 0, 0, 0, 0, 0, -1};
static FILE __stderr = {2, 1, 0, 0, 0, 0, 0, 0, 0, -1};
FILE *stdin = &__stdin;
FILE *stdout = &__stdout;
FILE *stderr = &__stderr;

int fflush(FILE *f) {
    int off = 0, r;
    if (!f) {
        fflush(stdout);
        return fflush(stderr);
    }
    while (off < f->wn) {
        r = write(f->fd, f->wbuf + off, f->wn - off);
        if (r <= 0) {
            f->err = 1;
            f->wn = 0;
            return EOF;
        }
        off = off + r;
    }
    f->wn = 0;
    return 0;
}

int fputc(int c, FILE *f) {
    char ch = c;
    if (f->unbuf || !f->wbuf) {
        if (write(f->fd, &ch, 1) != 1) return EOF;
        return c & 255;
    }
    if (f->wn == 4096) fflush(f);
    f->wbuf[f->wn++] = c;
    return c & 255;
}

int putc(int c, FILE *f) { return fputc(c, f); }
int putchar(int c) { return fputc(c, stdout); }

int fputs(char *s, FILE *f) {
    size_t n = strlen(s);
    if (f->unbuf || !f->wbuf) return write(f->fd, s, n) == n ? 0 : EOF;
    while (*s) fputc(*s++, f);
    return 0;
}

int puts(char *s) {
    fputs(s, stdout);
    return fputc('\n', stdout);
}

int fgetc(FILE *f) {
    int r;
    if (f->unget >= 0) {
        r = f->unget;
        f->unget = -1;
        return r;
    }
    if (f->rpos >= f->rn) {
        if (f->eof || !f->rbuf) return EOF;
        if (f == stdin) fflush(stdout);
        r = read(f->fd, f->rbuf, 4096);
        if (r <= 0) {
            f->eof = 1;
            return EOF;
        }
        f->rn = r;
        f->rpos = 0;
    }
    return (unsigned char)f->rbuf[f->rpos++];
}

int getc(FILE *f) { return fgetc(f); }
int getchar(void) { return fgetc(stdin); }
int feof(FILE *f) { return f->eof; }

int ungetc(int c, FILE *f) {
    f->unget = c & 255;
    return c;
}

char *fgets(char *s, int n, FILE *f) {
    int i = 0, c;
    while (i < n - 1) {
        c = fgetc(f);
        if (c == EOF) break;
        s[i++] = c;
        if (c == '\n') break;
    }
    if (i == 0) return 0;
    s[i] = 0;
    return s;
}

FILE *fopen(char *path, char *mode) {
    int flags = O_RDONLY, fd;
    FILE *f;
    if (mode[0] == 'w') flags = O_WRONLY | O_CREAT | O_TRUNC;
    if (mode[0] == 'a') flags = O_WRONLY | O_CREAT | O_APPEND;
    fd = open(path, flags, 420);
    if (fd < 0) return 0;
    f = calloc(1, sizeof(FILE));
    f->fd = fd;
    f->unget = -1;
    if (mode[0] == 'r') f->rbuf = malloc(4096);
    else f->wbuf = malloc(4096);
    return f;
}

int fclose(FILE *f) {
    fflush(f);
    close(f->fd);
    free(f->rbuf);
    free(f->wbuf);
    free(f);
    return 0;
}

size_t fread(void *p, size_t size, size_t n, FILE *f) {
    char *q = p;
    size_t i, total = size * n;
    int c;
    for (i = 0; i < total; i++) {
        c = fgetc(f);
        if (c == EOF) break;
        q[i] = c;
    }
    return size ? i / size : 0;
}

size_t fwrite(void *p, size_t size, size_t n, FILE *f) {
    char *q = p;
    size_t i, total = size * n;
    if (f->unbuf || !f->wbuf) return size ? write(f->fd, p, total) / size : 0;
    for (i = 0; i < total; i++) fputc(q[i], f);
    return n;
}

/* ---------------------------------------------------------- printf */

typedef struct __Out __Out;
struct __Out {
    FILE *f;
    char *buf;
    long cap;
    long n;
};

static void __outc(__Out *o, int c) {
    if (o->f) fputc(c, o->f);
    else if (o->n + 1 < o->cap) o->buf[o->n] = c;
    o->n++;
}

static void __pad(__Out *o, int c, int n) {
    while (n-- > 0) __outc(o, c);
}

static int __format(__Out *o, char *fmt, va_list ap) {
    char tmp[72], *s, *prefix;
    int left, zero, plus, space, alt, width, prec, lng, c, len, i, neg, plen, zeros, base;
    unsigned long u;
    long v;
    while (*fmt) {
        if (*fmt != '%') {
            __outc(o, *fmt++);
            continue;
        }
        fmt++;
        left = zero = plus = space = alt = width = lng = 0;
        prec = -1;
        for (;; fmt++) {
            if (*fmt == '-') left = 1;
            else if (*fmt == '0') zero = 1;
            else if (*fmt == '+') plus = 1;
            else if (*fmt == ' ') space = 1;
            else if (*fmt == '#') alt = 1;
            else break;
        }
        if (*fmt == '*') {
            width = va_arg(ap, int);
            if (width < 0) {
                left = 1;
                width = -width;
            }
            fmt++;
        } else
            while (isdigit(*fmt)) width = width * 10 + *fmt++ - '0';
        if (*fmt == '.') {
            fmt++;
            prec = 0;
            if (*fmt == '*') {
                prec = va_arg(ap, int);
                fmt++;
            } else
                while (isdigit(*fmt)) prec = prec * 10 + *fmt++ - '0';
        }
        for (;; fmt++) {
            if (*fmt == 'l' || *fmt == 'z' || *fmt == 'j' || *fmt == 't') lng = 1;
            else if (*fmt != 'h') break;
        }
        c = *fmt++;
        if (c == 0) break;
        if (c == 's' || c == 'c' || c == '%') {
            if (c == 's') {
                s = va_arg(ap, char *);
                if (!s) s = "(null)";
                len = strlen(s);
                if (prec >= 0 && len > prec) len = prec;
            } else {
                tmp[0] = c == 'c' ? va_arg(ap, int) : '%';
                s = tmp;
                len = 1;
            }
            if (!left) __pad(o, ' ', width - len);
            for (i = 0; i < len; i++) __outc(o, s[i]);
            if (left) __pad(o, ' ', width - len);
            continue;
        }
        neg = 0;
        prefix = "";
        base = 10;
        if (c == 'd' || c == 'i') {
            v = lng ? va_arg(ap, long) : va_arg(ap, int);
            neg = v < 0;
            u = neg ? -v : v;
            if (neg) prefix = "-";
            else if (plus) prefix = "+";
            else if (space) prefix = " ";
        } else if (c == 'u' || c == 'x' || c == 'X' || c == 'o') {
            u = lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
            if (c == 'o') base = 8;
            if (c == 'x' || c == 'X') base = 16;
            if (alt && u && base == 16) prefix = c == 'x' ? "0x" : "0X";
            if (alt && base == 8) prefix = "0";
        } else if (c == 'p') {
            u = va_arg(ap, unsigned long);
            if (!u) {
                s = "(nil)";
                if (!left) __pad(o, ' ', width - 5);
                for (i = 0; i < 5; i++) __outc(o, s[i]);
                if (left) __pad(o, ' ', width - 5);
                continue;
            }
            base = 16;
            prefix = "0x";
        } else {
            __outc(o, '%');
            __outc(o, c);
            continue;
        }
        len = 0;
        while (u) {
            i = u % base;
            tmp[len++] = i < 10 ? '0' + i : (c == 'X' ? 'A' : 'a') + i - 10;
            u = u / base;
        }
        if (len == 0 && prec != 0) tmp[len++] = '0';
        if (base == 8 && alt && len && tmp[len - 1] == '0') prefix = "";
        zeros = prec > len ? prec - len : 0;
        plen = strlen(prefix);
        if (zero && !left && prec < 0 && width > len + plen) zeros = width - len - plen;
        if (!left) __pad(o, ' ', width - len - plen - zeros);
        for (i = 0; i < plen; i++) __outc(o, prefix[i]);
        __pad(o, '0', zeros);
        for (i = len; i > 0; i--) __outc(o, tmp[i - 1]);
        if (left) __pad(o, ' ', width - len - plen - zeros);
    }
    return o->n;
}

int vfprintf(FILE *f, char *fmt, va_list ap) {
    __Out o;
    memset(&o, 0, sizeof(o));
    o.f = f;
    return __format(&o, fmt, ap);
}

int vsnprintf(char *buf, size_t n, char *fmt, va_list ap) {
    __Out o;
    int r;
    memset(&o, 0, sizeof(o));
    o.buf = buf;
    o.cap = n;
    r = __format(&o, fmt, ap);
    if (n) buf[o.n < n ? o.n : n - 1] = 0;
    return r;
}

int vsprintf(char *buf, char *fmt, va_list ap) { return vsnprintf(buf, 1L << 40, fmt, ap); }
int vprintf(char *fmt, va_list ap) { return vfprintf(stdout, fmt, ap); }

int printf(char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    return vfprintf(stdout, fmt, ap);
}

int fprintf(FILE *f, char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    return vfprintf(f, fmt, ap);
}

int sprintf(char *buf, char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    return vsnprintf(buf, 1L << 40, fmt, ap);
}

int snprintf(char *buf, size_t n, char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    return vsnprintf(buf, n, fmt, ap);
}

void exit(int code) {
    fflush(stdout);
    fflush(stderr);
    _exit(code);
}

void abort(void) {
    fflush(stdout);
    _exit(134);
}
