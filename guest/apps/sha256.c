/* SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104).
 *
 *   sha256            hash of stdin, as hex
 *   sha256 -lines     each stdin line "MSGHEX" or "KEYHEX:MSGHEX" (HMAC) -> one hex digest per line
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

typedef struct sha256 {
    unsigned int h[8];
    unsigned char block[64];
    int used;
    unsigned long length;
} sha256;

static unsigned int K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static unsigned int rotr(unsigned int x, int n) { return (x >> n) | (x << (32 - n)); }

static void compress(sha256 *s) {
    unsigned int w[64], a, b, c, d, e, f, g, h, t1, t2;
    int i;
    for (i = 0; i < 16; i++)
        w[i] = (unsigned int)s->block[4 * i] << 24 | s->block[4 * i + 1] << 16 | s->block[4 * i + 2] << 8 | s->block[4 * i + 3];
    for (i = 16; i < 64; i++)
        w[i] = (rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)) + w[i - 7] +
               (rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 16];
    a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
    e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
    for (i = 0; i < 64; i++) {
        t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
    s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

void sha256_init(sha256 *s) {
    s->h[0] = 0x6a09e667; s->h[1] = 0xbb67ae85; s->h[2] = 0x3c6ef372; s->h[3] = 0xa54ff53a;
    s->h[4] = 0x510e527f; s->h[5] = 0x9b05688c; s->h[6] = 0x1f83d9ab; s->h[7] = 0x5be0cd19;
    s->used = 0;
    s->length = 0;
}

void sha256_update(sha256 *s, unsigned char *p, long n) {
    while (n-- > 0) {
        s->block[s->used++] = *p++;
        s->length++;
        if (s->used == 64) {
            compress(s);
            s->used = 0;
        }
    }
}

void sha256_final(sha256 *s, unsigned char *out) {
    unsigned long bits = s->length * 8;
    unsigned char pad = 0x80, zero = 0, len[8];
    int i;
    sha256_update(s, &pad, 1);
    while (s->used != 56) sha256_update(s, &zero, 1);
    for (i = 0; i < 8; i++) len[i] = bits >> (56 - 8 * i);
    sha256_update(s, len, 8);
    for (i = 0; i < 32; i++) out[i] = s->h[i / 4] >> (24 - 8 * (i % 4));
}

void hmac_sha256(unsigned char *key, long klen, unsigned char *msg, long mlen, unsigned char *out) {
    unsigned char k[64], pad[64], inner[32];
    sha256 s;
    int i;
    memset(k, 0, 64);
    if (klen > 64) {
        sha256_init(&s);
        sha256_update(&s, key, klen);
        sha256_final(&s, k);
    } else memcpy(k, key, klen);
    for (i = 0; i < 64; i++) pad[i] = k[i] ^ 0x36;
    sha256_init(&s);
    sha256_update(&s, pad, 64);
    sha256_update(&s, msg, mlen);
    sha256_final(&s, inner);
    for (i = 0; i < 64; i++) pad[i] = k[i] ^ 0x5c;
    sha256_init(&s);
    sha256_update(&s, pad, 64);
    sha256_update(&s, inner, 32);
    sha256_final(&s, out);
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* decodes hex from s up to a non-hex character; returns the byte count */
static long unhex(char *s, unsigned char *out, char **end) {
    long n = 0;
    while (hexval(s[0]) >= 0 && hexval(s[1]) >= 0) {
        out[n++] = hexval(s[0]) * 16 + hexval(s[1]);
        s += 2;
    }
    *end = s;
    return n;
}

static void print_hex(unsigned char *d) {
    int i;
    for (i = 0; i < 32; i++) printf("%02x", d[i]);
    printf("\n");
}

int main(int argc, char **argv) {
    unsigned char digest[32];
    sha256 s;
    int c;
    if (argc > 1 && !strcmp(argv[1], "-lines")) {
        static char line[8192];
        static unsigned char key[4096], msg[4096];
        char *p;
        long klen, mlen;
        while (fgets(line, sizeof line, stdin)) {
            klen = unhex(line, key, &p);
            if (*p == ':') {
                mlen = unhex(p + 1, msg, &p);
                hmac_sha256(key, klen, msg, mlen, digest);
            } else {
                sha256_init(&s);
                sha256_update(&s, key, klen);
                sha256_final(&s, digest);
            }
            print_hex(digest);
        }
        return 0;
    }
    sha256_init(&s);
    while ((c = getchar()) != EOF) {
        unsigned char b = c;
        sha256_update(&s, &b, 1);
    }
    sha256_final(&s, digest);
    print_hex(digest);
    return 0;
}
