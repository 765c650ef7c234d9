/* AES-128 (FIPS 197) in ECB and CBC, written to run in constant time: the S-box is
 * computed (inversion in GF(2^8) as x^254, then the affine map) with no table
 * indexed by secret data and no branch on secret data. `-leaky` switches to the
 * usual table lookups, to show what a timing/cache trace reveals.
 *
 *   aes ecb|cbc enc|dec [-leaky]   stdin lines "KEYHEX IVHEX DATAHEX" -> DATAHEX out
 *   aes block [-leaky]             raw 16 key + 16 plaintext bytes on stdin -> 16 raw bytes
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef unsigned char u8;

static int leaky;

/* ---------------------------------------------------------- constant time */

static u8 gf_mul(u8 a, u8 b) {
    u8 r = 0, mask;
    int i;
    for (i = 0; i < 8; i++) {
        mask = -(b & 1);
        r ^= a & mask;
        mask = -(a >> 7);
        a = (a << 1) ^ (0x1b & mask);
        b >>= 1;
    }
    return r;
}

static u8 gf_inv(u8 x) { /* x^254; 0 maps to 0 */
    u8 x2 = gf_mul(x, x), x3 = gf_mul(x2, x), x6 = gf_mul(x3, x3), x12 = gf_mul(x6, x6);
    u8 x15 = gf_mul(x12, x3), x30 = gf_mul(x15, x15), x60 = gf_mul(x30, x30), x120 = gf_mul(x60, x60);
    u8 x126 = gf_mul(x120, x6), x127 = gf_mul(x126, x), x254 = gf_mul(x127, x127);
    return x254;
}

static u8 rotl8(u8 x, int n) { return (x << n) | (x >> (8 - n)); }

static u8 sbox_ct(u8 x) {
    u8 b = gf_inv(x);
    return b ^ rotl8(b, 1) ^ rotl8(b, 2) ^ rotl8(b, 3) ^ rotl8(b, 4) ^ 0x63;
}

static u8 inv_sbox_ct(u8 x) {
    u8 b = rotl8(x, 1) ^ rotl8(x, 3) ^ rotl8(x, 6) ^ 0x05;
    return gf_inv(b);
}

/* ---------------------------------------------------------- table based (leaky) */

static u8 sbox_table[256], inv_sbox_table[256];

static void build_tables(void) {
    int i;
    for (i = 0; i < 256; i++) {
        sbox_table[i] = sbox_ct(i);
        inv_sbox_table[sbox_table[i]] = i;
    }
}

static u8 sub(u8 x) { return leaky ? sbox_table[x] : sbox_ct(x); }
static u8 inv_sub(u8 x) { return leaky ? inv_sbox_table[x] : inv_sbox_ct(x); }

/* ---------------------------------------------------------- the cipher */

static void expand_key(u8 *key, u8 *rk) { /* rk: 176 bytes */
    u8 rcon = 1, t[4], m;
    int i, j;
    memcpy(rk, key, 16);
    for (i = 4; i < 44; i++) {
        for (j = 0; j < 4; j++) t[j] = rk[4 * (i - 1) + j];
        if (i % 4 == 0) {
            u8 first = t[0];
            t[0] = sub(t[1]) ^ rcon;
            t[1] = sub(t[2]);
            t[2] = sub(t[3]);
            t[3] = sub(first);
            m = -(rcon >> 7);
            rcon = (rcon << 1) ^ (0x1b & m);
        }
        for (j = 0; j < 4; j++) rk[4 * i + j] = rk[4 * (i - 4) + j] ^ t[j];
    }
}

static void add_round_key(u8 *s, u8 *rk) {
    int i;
    for (i = 0; i < 16; i++) s[i] ^= rk[i];
}

static void shift_rows(u8 *s, int inverse) {
    u8 t[16];
    int r, c;
    for (r = 0; r < 4; r++)
        for (c = 0; c < 4; c++) {
            if (inverse) t[4 * ((c + r) % 4) + r] = s[4 * c + r];
            else t[4 * c + r] = s[4 * ((c + r) % 4) + r];
        }
    memcpy(s, t, 16);
}

static void mix_columns(u8 *s, int inverse) {
    u8 a[4];
    int c, i;
    for (c = 0; c < 4; c++) {
        for (i = 0; i < 4; i++) a[i] = s[4 * c + i];
        for (i = 0; i < 4; i++) {
            if (inverse)
                s[4 * c + i] = gf_mul(a[i], 14) ^ gf_mul(a[(i + 1) % 4], 11) ^ gf_mul(a[(i + 2) % 4], 13) ^ gf_mul(a[(i + 3) % 4], 9);
            else
                s[4 * c + i] = gf_mul(a[i], 2) ^ gf_mul(a[(i + 1) % 4], 3) ^ a[(i + 2) % 4] ^ a[(i + 3) % 4];
        }
    }
}

void encrypt_block(u8 *rk, u8 *s) {
    int round, i;
    add_round_key(s, rk);
    for (round = 1; round <= 10; round++) {
        for (i = 0; i < 16; i++) s[i] = sub(s[i]);
        shift_rows(s, 0);
        if (round != 10) mix_columns(s, 0);
        add_round_key(s, rk + 16 * round);
    }
}

void decrypt_block(u8 *rk, u8 *s) {
    int round, i;
    add_round_key(s, rk + 160);
    for (round = 9; round >= 0; round--) {
        shift_rows(s, 1);
        for (i = 0; i < 16; i++) s[i] = inv_sub(s[i]);
        add_round_key(s, rk + 16 * round);
        if (round) mix_columns(s, 1);
    }
}

/* ---------------------------------------------------------- front end */

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static char *unhex(char *p, u8 *out, int *n) {
    *n = 0;
    while (*p == ' ') p++;
    while (hexval(p[0]) >= 0 && hexval(p[1]) >= 0) {
        out[(*n)++] = hexval(p[0]) * 16 + hexval(p[1]);
        p += 2;
    }
    return p;
}

static int read_full(u8 *buf, int n) {
    int got = 0, r;
    while (got < n) {
        r = read(0, buf + got, n - got);
        if (r <= 0) return 0;
        got += r;
    }
    return 1;
}

int main(int argc, char **argv) {
    static char line[8192];
    static u8 data[4096];
    u8 key[16], iv[16], rk[176], prev[16], block[32];
    int cbc, enc, n, klen, ivlen, i, j, argi = 3;
    char *p;
    if (argc >= 2 && !strcmp(argv[1], "block")) {
        leaky = argc > 2 && !strcmp(argv[2], "-leaky");
        if (leaky) build_tables();
        if (!read_full(block, 32)) return 1;
        expand_key(block, rk);
        encrypt_block(rk, block + 16);
        write(1, block + 16, 16);
        return 0;
    }
    if (argc < 3 || (strcmp(argv[1], "ecb") && strcmp(argv[1], "cbc")) || (strcmp(argv[2], "enc") && strcmp(argv[2], "dec"))) {
        fprintf(stderr, "usage: aes ecb|cbc enc|dec [-leaky] < lines\n       aes block [-leaky] < 32 raw bytes\n");
        return 2;
    }
    cbc = !strcmp(argv[1], "cbc");
    enc = !strcmp(argv[2], "enc");
    leaky = argc > argi && !strcmp(argv[argi], "-leaky");
    if (leaky) build_tables();
    while (fgets(line, sizeof line, stdin)) {
        p = unhex(line, key, &klen);
        p = unhex(p, iv, &ivlen);
        unhex(p, data, &n);
        if (klen != 16 || ivlen != 16 || n % 16) {
            printf("error: need a 16-byte key, a 16-byte iv and whole blocks\n");
            continue;
        }
        expand_key(key, rk);
        memcpy(prev, iv, 16);
        for (i = 0; i < n; i += 16) {
            u8 *b = data + i, saved[16];
            memcpy(saved, b, 16);
            if (enc) {
                if (cbc) for (j = 0; j < 16; j++) b[j] ^= prev[j];
                encrypt_block(rk, b);
                memcpy(prev, b, 16);
            } else {
                decrypt_block(rk, b);
                if (cbc) for (j = 0; j < 16; j++) b[j] ^= prev[j];
                memcpy(prev, saved, 16);
            }
        }
        for (i = 0; i < n; i++) printf("%02x", data[i]);
        printf("\n");
    }
    return 0;
}
