/* glibc routines as whole functions on many random inputs: usage libc_fuzz SEED COUNT.
   glibc's AArch64 string functions are hand-written SIMD loops (strlen, memchr,
   strchr, ... read 16 bytes at a time and reduce with ADDP/UMAXV/SHRN), so a
   wrong instruction shows up here as a wrong result on some length, alignment
   or byte value. Prints one FNV-1a digest of all results per routine; the
   outputs are compared with qemu-aarch64's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <errno.h>
#include <ctype.h>

static uint64_t rng;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (uint32_t)(rng >> 11); }
static unsigned below(unsigned n) { return next() % n; }

static uint64_t digest;
static void mix(uint64_t v) { for (int i = 0; i < 8; i++) { digest ^= (v >> (8 * i)) & 0xff; digest *= 0x100000001b3ull; } }
static void mix_ptr(const void *p, const void *base) { mix(p ? (uint64_t)((const char *)p - (const char *)base) : ~0ull); }
static int sign(int v) { return (v > 0) - (v < 0); }

#define SIZE 8192
static char a_buf[SIZE + 64], b_buf[SIZE + 64];

/* bytes from a small alphabet (so that matches and equal prefixes are common), now and then any byte */
static unsigned char random_byte(void) {
    static const char alphabet[] = "aab0 -x\x80\xff";
    return below(8) ? (unsigned char)alphabet[below(sizeof alphabet - 1)] : (unsigned char)next();
}

static unsigned random_len(void) {
    unsigned r = below(16);
    return r < 8 ? below(20) : r < 14 ? below(130) : below(1500);
}

/* a NUL-terminated string of length len at a random alignment in buf; the 32 bytes after it are noise */
static char *random_string(char *buf, unsigned len) {
    char *s = buf + below(33);
    for (unsigned i = 0; i < len; i++) { s[i] = (char)random_byte(); if (!s[i]) s[i] = 'z'; }
    s[len] = 0;
    for (unsigned i = len + 1; i < len + 33; i++) s[i] = (char)(next() | 1);
    return s;
}

/* the bytes [from, to) of a buffer into the digest */
static void mix_bytes(const char *from, const char *to) {
    for (; from + 8 <= to; from += 8) { uint64_t v; memcpy(&v, from, 8); mix(v); }
    for (; from < to; from++) mix((unsigned char)*from);
}

/* b: a copy of a with an edit somewhere (or none), also at a random alignment */
static char *edited_copy(const char *a, unsigned len, unsigned *blen) {
    char *b = b_buf + below(33);
    memcpy(b, a, len + 1);
    *blen = len;
    unsigned r = below(4);
    if (len && r == 0) b[below(len)] = (char)random_byte();
    if (len && r == 1) { *blen = below(len); b[*blen] = 0; }
    if (b[0] == 0 && *blen) b[0] = 'z';
    for (unsigned i = 0; i < *blen; i++) if (!b[i]) b[i] = 'y';
    return b;
}

typedef void (*routine)(void);

static void t_strlen(void) { char *s = random_string(a_buf, random_len()); mix(strlen(s)); }
static void t_strnlen(void) { unsigned len = random_len(); char *s = random_string(a_buf, len); mix(strnlen(s, below(len + 20))); }
static void t_strcmp(void) {
    unsigned len = random_len(), blen; char *a = random_string(a_buf, len); char *b = edited_copy(a, len, &blen);
    mix(sign(strcmp(a, b))); mix(sign(strncmp(a, b, below(len + 8)))); mix(sign(strcasecmp(a, b)));
}
static void t_memcmp(void) {
    unsigned len = random_len(), blen; char *a = random_string(a_buf, len); char *b = edited_copy(a, len, &blen);
    mix(sign(memcmp(a, b, below(len + 1)))); mix(sign(bcmp(a, b, below(len + 1)) != 0));
}
static void t_memchr(void) {
    unsigned len = random_len(); char *s = random_string(a_buf, len); int c = random_byte(); unsigned n = below(len + 1);
    mix_ptr(memchr(s, c, n), s); mix_ptr(memrchr(s, c, n), s); mix_ptr(rawmemchr(s, 0), s);
}
static void t_strchr(void) {
    char *s = random_string(a_buf, random_len()); int c = below(5) ? random_byte() : 0;
    mix_ptr(strchr(s, c), s); mix_ptr(strrchr(s, c), s); mix_ptr(strchrnul(s, c), s);
}
static void t_strstr(void) {
    unsigned len = random_len(); char *s = random_string(a_buf, len);
    char needle[16]; unsigned n = below(6); unsigned at = len ? below(len) : 0;
    for (unsigned i = 0; i < n; i++) needle[i] = below(3) && at + i < len ? s[at + i] : (char)(random_byte() | 1);
    needle[n] = 0;
    mix_ptr(strstr(s, needle), s); mix(strspn(s, needle)); mix(strcspn(s, needle)); mix_ptr(strpbrk(s, needle), s);
}
/* the copies land in a window whose untouched bytes must survive: digest the window */
static void t_memcpy(void) {
    unsigned len = random_len(); char *src = random_string(a_buf + 1600, len), *dst = b_buf + 16 + below(64);
    memset(dst - 16, 0x5a, len + 32);
    memcpy(dst, src, len);
    mix_bytes(dst - 16, dst + len + 16);
}
static void t_memmove(void) {
    unsigned len = random_len(); char *src = random_string(a_buf + 100 + below(64), len);
    char *dst = src + (int)below(129) - 64;    /* overlapping either way */
    memmove(dst, src, len);
    mix_bytes(a_buf + 20, a_buf + 260 + len);
}
static void t_memset(void) {
    unsigned len = random_len(); char *d = b_buf + 16 + below(64);
    memset(d - 16, 0x11, len + 32);
    memset(d, random_byte(), len);
    mix_bytes(d - 16, d + len + 16);
}
static void t_strcpy(void) {
    unsigned len = random_len(); char *s = random_string(a_buf, len); char *d = b_buf + 16 + below(33);
    unsigned n = below(len + 20);
    memset(d - 16, 0x22, 2 * len + n + 48);
    mix_ptr(stpcpy(d, s), d); strncpy(d + len + 1, s, n);
    mix_bytes(d - 16, d + len + n + 32);
}
/* numbers as text: signs, spaces, prefixes, digits of many bases, overflow, junk after */
static void t_strtoul(void) {
    static const char pieces[][6] = {" ", "\t", "-", "+", "0x", "0X", "0", "1", "7", "9", "a", "f", "z", "Z",
                                     "18446", "74407", "37095", "51615", "99999", "_", "."};
    char text[64]; unsigned n = 0, k = below(10);   /* at most 10 pieces of 5 */
    for (unsigned i = 0; i < k; i++) { const char *p = pieces[below(sizeof pieces / sizeof *pieces)]; size_t l = strlen(p); memcpy(text + n, p, l); n += l; }
    text[n] = 0;
    static const int bases[] = {0, 2, 8, 10, 16, 36, 1, 37};
    int base = bases[below(8)];
    char *end = text; errno = 0;          /* an invalid base leaves end alone */
    mix(strtoul(text, &end, base)); mix(end - text); mix(errno);
    end = text; errno = 0; mix((uint64_t)strtol(text, &end, base)); mix(end - text); mix(errno);
    end = text; errno = 0; mix((uint64_t)strtoll(text, &end, base)); mix(end - text); mix(errno);
    mix((uint64_t)atoi(text));
}
static void t_strtod(void) {
    static const char pieces[][6] = {"-", "1", "2", "9", ".", "5", "e", "E-", "e+3", "0x", "p", "inf", "nan", "00", "1e308", "4e-32", " "};
    char text[64]; unsigned n = 0, k = 1 + below(7);
    for (unsigned i = 0; i < k; i++) { const char *p = pieces[below(sizeof pieces / sizeof *pieces)]; size_t l = strlen(p); memcpy(text + n, p, l); n += l; }
    text[n] = 0;
    char *end; double d = strtod(text, &end); float f = strtof(text, NULL);
    uint64_t bits; memcpy(&bits, &d, 8); uint32_t fb; memcpy(&fb, &f, 4);
    mix(bits); mix(fb); mix(end - text);
    char out[64]; mix(snprintf(out, sizeof out, "%.17g|%a|%.3e", d, d, (double)f));
    for (char *p = out; *p; p++) mix((unsigned char)*p);
}
static void t_ctype(void) {
    int c = (int)below(257) - 1;
    mix(!!isalpha(c) | !!isdigit(c) << 1 | !!isspace(c) << 2 | !!isupper(c) << 3 | !!ispunct(c) << 4 | !!isxdigit(c) << 5);
    mix((unsigned)toupper(c)); mix((unsigned)tolower(c));
}

static const struct { const char *name; routine run; } ROUTINES[] = {
    {"strlen", t_strlen}, {"strnlen", t_strnlen}, {"strcmp", t_strcmp}, {"memcmp", t_memcmp},
    {"memchr", t_memchr}, {"strchr", t_strchr}, {"strstr", t_strstr}, {"memcpy", t_memcpy},
    {"memmove", t_memmove}, {"memset", t_memset}, {"strcpy", t_strcpy}, {"strtoul", t_strtoul},
    {"strtod", t_strtod}, {"ctype", t_ctype},
};

int main(int argc, char **argv) {
    unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 1, count = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000;
    for (size_t r = 0; r < sizeof ROUTINES / sizeof *ROUTINES; r++) {
        rng = seed * 0x9E3779B97F4A7C15ull + r + 1;
        digest = 0xcbf29ce484222325ull;
        for (unsigned long i = 0; i < count; i++) ROUTINES[r].run();
        printf("%-8s %lu %016llx\n", ROUTINES[r].name, count, (unsigned long long)digest);
    }
    return 0;
}
