/* A CHIP-8 emulator: chip8 ROM [MAXCYCLES] [KEYS]
 * Runs until an instruction jumps to itself (the usual "halt") or MAXCYCLES,
 * then renders the 64x32 screen to the terminal ('#' lit, '.' dark) and the registers.
 * KEYS: hex digits of the keys held down (for EX9E/EXA1/FX0A). Timers tick once
 * every 8 instructions. 8XY6/8XYE shift VY into VX (the COSMAC VIP's behaviour);
 * FX55/FX65 leave I unchanged. CXNN draws from a seeded generator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char mem[4096], V[16], screen[32][64], keys[16];
static unsigned short I, pc = 0x200, stack[16];
static int sp, dt, st;
static unsigned int seed = 1;

static unsigned char font[80] = {
    0xF0, 0x90, 0x90, 0x90, 0xF0, 0x20, 0x60, 0x20, 0x20, 0x70, 0xF0, 0x10, 0xF0, 0x80, 0xF0, 0xF0, 0x10, 0xF0, 0x10, 0xF0,
    0x90, 0x90, 0xF0, 0x10, 0x10, 0xF0, 0x80, 0xF0, 0x10, 0xF0, 0xF0, 0x80, 0xF0, 0x90, 0xF0, 0xF0, 0x10, 0x20, 0x40, 0x40,
    0xF0, 0x90, 0xF0, 0x90, 0xF0, 0xF0, 0x90, 0xF0, 0x10, 0xF0, 0xF0, 0x90, 0xF0, 0x90, 0x90, 0xE0, 0x90, 0xE0, 0x90, 0xE0,
    0xF0, 0x80, 0x80, 0x80, 0xF0, 0xE0, 0x90, 0x90, 0x90, 0xE0, 0xF0, 0x80, 0xF0, 0x80, 0xF0, 0xF0, 0x80, 0xF0, 0x80, 0x80};

static int rnd(void) {
    seed = seed * 1103515245 + 12345;
    return (seed >> 16) & 0xff;
}

/* executes one instruction; returns 0 to stop */
static int step(void) {
    unsigned short op = mem[pc & 0xfff] << 8 | mem[(pc + 1) & 0xfff], nnn = op & 0xfff;
    int x = op >> 8 & 15, y = op >> 4 & 15, nn = op & 0xff, n = op & 15, i, j, r;
    unsigned short here = pc;
    pc += 2;
    switch (op >> 12) {
    case 0:
        if (op == 0x00E0) memset(screen, 0, sizeof screen);
        else if (op == 0x00EE) {
            if (sp == 0) return 0;
            pc = stack[--sp];
        } else return 0;
        break;
    case 1: if (nnn == here) { pc = here; return 0; } pc = nnn; break;
    case 2: if (sp == 16) return 0; stack[sp++] = pc; pc = nnn; break;
    case 3: if (V[x] == nn) pc += 2; break;
    case 4: if (V[x] != nn) pc += 2; break;
    case 5: if (V[x] == V[y]) pc += 2; break;
    case 6: V[x] = nn; break;
    case 7: V[x] += nn; break;
    case 8:
        switch (n) {
        case 0: V[x] = V[y]; break;
        case 1: V[x] |= V[y]; break;
        case 2: V[x] &= V[y]; break;
        case 3: V[x] ^= V[y]; break;
        case 4: r = V[x] + V[y]; V[x] = r; V[15] = r > 255; break;
        case 5: r = V[x] >= V[y]; V[x] -= V[y]; V[15] = r; break;
        case 6: r = V[y] & 1; V[x] = V[y] >> 1; V[15] = r; break;
        case 7: r = V[y] >= V[x]; V[x] = V[y] - V[x]; V[15] = r; break;
        case 14: r = V[y] >> 7; V[x] = V[y] << 1; V[15] = r; break;
        default: return 0;
        }
        break;
    case 9: if (V[x] != V[y]) pc += 2; break;
    case 10: I = nnn; break;
    case 11: pc = nnn + V[0]; break;
    case 12: V[x] = rnd() & nn; break;
    case 13:
        V[15] = 0;
        for (j = 0; j < n; j++)
            for (i = 0; i < 8; i++)
                if (mem[(I + j) & 0xfff] & (0x80 >> i)) {
                    unsigned char *p = &screen[(V[y] + j) % 32][(V[x] + i) % 64];
                    if (*p) V[15] = 1;
                    *p ^= 1;
                }
        break;
    case 14:
        if (nn == 0x9E) { if (keys[V[x] & 15]) pc += 2; }
        else if (nn == 0xA1) { if (!keys[V[x] & 15]) pc += 2; }
        else return 0;
        break;
    case 15:
        switch (nn) {
        case 0x07: V[x] = dt; break;
        case 0x0A:
            for (i = 0; i < 16 && !keys[i]; i++) ;
            if (i == 16) return 0; /* would wait for ever */
            V[x] = i;
            break;
        case 0x15: dt = V[x]; break;
        case 0x18: st = V[x]; break;
        case 0x1E: I += V[x]; break;
        case 0x29: I = (V[x] & 15) * 5; break;
        case 0x33: mem[I & 0xfff] = V[x] / 100; mem[(I + 1) & 0xfff] = V[x] / 10 % 10; mem[(I + 2) & 0xfff] = V[x] % 10; break;
        case 0x55: for (i = 0; i <= x; i++) mem[(I + i) & 0xfff] = V[i]; break;
        case 0x65: for (i = 0; i <= x; i++) V[i] = mem[(I + i) & 0xfff]; break;
        default: return 0;
        }
        break;
    }
    return 1;
}

int main(int argc, char **argv) {
    FILE *f;
    long cycles = 0, max = argc > 2 ? atol(argv[2]) : 100000;
    int n, c, x, y;
    char *k;
    if (argc < 2) {
        fprintf(stderr, "usage: chip8 ROM [MAXCYCLES] [KEYS]\n");
        return 2;
    }
    f = fopen(argv[1], "r");
    if (!f) {
        fprintf(stderr, "chip8: cannot open %s\n", argv[1]);
        return 2;
    }
    memcpy(mem, font, 80);
    for (n = 0; n < 4096 - 0x200 && (c = fgetc(f)) != EOF; n++) mem[0x200 + n] = c;
    fclose(f);
    if (argc > 3)
        for (k = argv[3]; *k; k++) {
            c = *k >= 'a' ? *k - 'a' + 10 : *k >= 'A' ? *k - 'A' + 10 : *k - '0';
            if (c >= 0 && c < 16) keys[c] = 1;
        }
    while (cycles < max && step()) {
        cycles++;
        if (cycles % 8 == 0) {
            if (dt) dt--;
            if (st) st--;
        }
    }
    for (y = 0; y < 32; y++) {
        for (x = 0; x < 64; x++) putchar(screen[y][x] ? '#' : '.');
        putchar('\n');
    }
    for (n = 0; n < 16; n++) printf("V%X=%02x ", n, V[n]);
    printf("\nI=%03x PC=%03x SP=%d DT=%d ST=%d cycles=%ld\n", I, pc, sp, dt, st, cycles);
    return 0;
}
