/* Tetris for the terminal (ANSI output). Each key is one turn: a/d move, w rotates
 * (clockwise, refused when blocked), s drops one row, space drops to the bottom,
 * any other key waits; after every key but space the piece falls one row. q quits.
 * Pieces come from a seeded generator; 1/2/3/4 lines score 100/300/500/800.
 *
 *   tetris [SEED]      (on a terminal it switches to cbreak mode while it runs)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef __NCC__
#include <sys/ioctl.h>
#endif

#define W 10
#define H 20

/* each piece: box size, then 4 cells (x, y) in its box */
static int shapes[7][9] = {
    {4, 0, 1, 1, 1, 2, 1, 3, 1}, /* I */
    {2, 0, 0, 1, 0, 0, 1, 1, 1}, /* O */
    {3, 1, 0, 0, 1, 1, 1, 2, 1}, /* T */
    {3, 1, 0, 2, 0, 0, 1, 1, 1}, /* S */
    {3, 0, 0, 1, 0, 1, 1, 2, 1}, /* Z */
    {3, 0, 0, 0, 1, 1, 1, 2, 1}, /* J */
    {3, 2, 0, 0, 1, 1, 1, 2, 1}, /* L */
};
static char names[] = "IOTSZJL";

static char board[H][W];
static int cx[4], cy[4], px, py, kind, score, lines;
static unsigned int seed;

static long term_ioctl(int fd, unsigned long req, void *arg) {
#ifdef __NCC__
    return __syscall(29, fd, req, arg);
#else
    return ioctl(fd, req, arg);
#endif
}

static int rnd(void) {
    seed = seed * 1103515245 + 12345;
    return (seed >> 16) & 0x7fff;
}

static int fits(int *xs, int *ys, int ox, int oy) {
    int i, x, y;
    for (i = 0; i < 4; i++) {
        x = ox + xs[i];
        y = oy + ys[i];
        if (x < 0 || x >= W || y < 0 || y >= H || board[y][x]) return 0;
    }
    return 1;
}

static int spawn(void) {
    int i;
    kind = rnd() % 7;
    for (i = 0; i < 4; i++) {
        cx[i] = shapes[kind][1 + 2 * i];
        cy[i] = shapes[kind][2 + 2 * i];
    }
    px = 3;
    py = 0;
    return fits(cx, cy, px, py);
}

static void rotate(void) {
    int nx[4], ny[4], i, n = shapes[kind][0];
    for (i = 0; i < 4; i++) {
        nx[i] = n - 1 - cy[i];
        ny[i] = cx[i];
    }
    if (fits(nx, ny, px, py)) {
        memcpy(cx, nx, sizeof nx);
        memcpy(cy, ny, sizeof ny);
    }
}

/* locks the piece, clears full rows, spawns the next; 0 when the next does not fit */
static int lock_piece(void) {
    static int points[5] = {0, 100, 300, 500, 800};
    int i, y, x, full, cleared = 0;
    for (i = 0; i < 4; i++) board[py + cy[i]][px + cx[i]] = names[kind];
    for (y = H - 1; y >= 0; y--) {
        full = 1;
        for (x = 0; x < W; x++)
            if (!board[y][x]) full = 0;
        if (full) {
            memmove(board[1], board[0], (long)y * W);
            memset(board[0], 0, W);
            cleared++;
            y++;
        }
    }
    score += points[cleared];
    lines += cleared;
    return spawn();
}

static int fall(void) {
    if (fits(cx, cy, px, py + 1)) {
        py++;
        return 1;
    }
    return lock_piece();
}

static void draw(void) {
    int x, y, i, c;
    printf("\033[H\033[2J");
    for (y = 0; y < H; y++) {
        putchar('|');
        for (x = 0; x < W; x++) {
            c = board[y][x] ? '#' : '.';
            for (i = 0; i < 4; i++)
                if (px + cx[i] == x && py + cy[i] == y) c = '@';
            putchar(c);
        }
        printf("|\n");
    }
    printf("+----------+\nscore %d lines %d next-seed %u\n", score, lines, seed);
    fflush(stdout);
}

int main(int argc, char **argv) {
    char saved[64], raw[64];
    int tty, c, alive = 1;
    seed = argc > 1 ? atoi(argv[1]) : 1;
    tty = term_ioctl(0, 0x5401, saved) == 0; /* TCGETS */
    if (tty) {
        memcpy(raw, saved, 64);
        raw[12] &= ~(2 | 8); /* no ICANON, no ECHO */
        term_ioctl(0, 0x5402, raw);
    }
    spawn();
    draw();
    while (alive) {
        c = getchar();
        if (c == EOF || c == 'q') break;
        if (c == 'a' && fits(cx, cy, px - 1, py)) px--;
        else if (c == 'd' && fits(cx, cy, px + 1, py)) px++;
        else if (c == 'w') rotate();
        else if (c == 's' && fits(cx, cy, px, py + 1)) py++;
        if (c == ' ') {
            while (fits(cx, cy, px, py + 1)) py++;
            alive = lock_piece();
        } else {
            alive = fall();
        }
        draw();
    }
    if (tty) term_ioctl(0, 0x5402, saved);
    printf("%s score %d lines %d\n", alive ? "quit" : "GAME OVER", score, lines);
    return 0;
}
