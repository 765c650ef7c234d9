/* Snake for the terminal (ANSI output). Each key is one step: w a s d or the
 * arrow keys turn, q quits, any other key steps straight on. A seeded generator
 * places the food, so a key script always plays the same game.
 *
 *   snake [SEED]      (on a terminal it switches to cbreak mode while it runs)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifndef __NCC__
#include <sys/ioctl.h>
#endif

#define W 20
#define H 10
#define MAXLEN (W * H)

static int xs[MAXLEN], ys[MAXLEN], len, dir, score, food_x, food_y;
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

static int on_snake(int x, int y, int from) {
    int i;
    for (i = from; i < len; i++)
        if (xs[i] == x && ys[i] == y) return 1;
    return 0;
}

/* the k-th free cell in row-major order, k = rnd() % free cells; 0 if the board is full */
static int place_food(void) {
    int free_cells = W * H - len, k, x, y;
    if (free_cells == 0) return 0;
    k = rnd() % free_cells;
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            if (!on_snake(x, y, 0) && k-- == 0) {
                food_x = x;
                food_y = y;
                return 1;
            }
    return 0;
}

static void draw(void) {
    int x, y;
    printf("\033[H\033[2J+");
    for (x = 0; x < W; x++) putchar('-');
    printf("+\n");
    for (y = 0; y < H; y++) {
        putchar('|');
        for (x = 0; x < W; x++) {
            if (x == xs[0] && y == ys[0]) putchar('@');
            else if (on_snake(x, y, 1)) putchar('o');
            else if (x == food_x && y == food_y) putchar('*');
            else putchar(' ');
        }
        printf("|\n");
    }
    putchar('+');
    for (x = 0; x < W; x++) putchar('-');
    printf("+\nscore %d  length %d\n", score, len);
    fflush(stdout);
}

static int read_key(void) {
    int c = getchar();
    if (c == 27) { /* ESC [ A..D */
        if (getchar() != '[') return 0;
        c = getchar();
        if (c == 'A') return 'w';
        if (c == 'B') return 's';
        if (c == 'C') return 'd';
        if (c == 'D') return 'a';
        return 0;
    }
    return c;
}

int main(int argc, char **argv) {
    static int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1}; /* right down left up */
    char saved[64], raw[64];
    int tty, i, c, nd, nx, ny, ate, result = 0;
    seed = argc > 1 ? atoi(argv[1]) : 1;
    tty = term_ioctl(0, 0x5401, saved) == 0; /* TCGETS */
    if (tty) {
        memcpy(raw, saved, 64);
        raw[12] &= ~(2 | 8); /* c_lflag: no ICANON, no ECHO */
        term_ioctl(0, 0x5402, raw); /* TCSETS */
    }
    len = 3;
    for (i = 0; i < len; i++) {
        xs[i] = W / 2 - i;
        ys[i] = H / 2;
    }
    dir = 0;
    place_food();
    draw();
    for (;;) {
        c = read_key();
        if (c == EOF || c == 'q') break;
        nd = c == 'd' ? 0 : c == 's' ? 1 : c == 'a' ? 2 : c == 'w' ? 3 : dir;
        if ((nd + 2) % 4 != dir) dir = nd;
        nx = xs[0] + dx[dir];
        ny = ys[0] + dy[dir];
        ate = nx == food_x && ny == food_y;
        if (nx < 0 || nx >= W || ny < 0 || ny >= H || on_snake(nx, ny, 0) && !(nx == xs[len - 1] && ny == ys[len - 1] && !ate)) {
            result = 1;
            break;
        }
        if (ate) len++;
        for (i = len - 1; i > 0; i--) {
            xs[i] = xs[i - 1];
            ys[i] = ys[i - 1];
        }
        xs[0] = nx;
        ys[0] = ny;
        if (ate) {
            score += 10;
            if (!place_food()) {
                result = 2;
                draw();
                break;
            }
        }
        draw();
    }
    if (tty) term_ioctl(0, 0x5402, saved);
    printf("%s score %d\n", result == 1 ? "GAME OVER" : result == 2 ? "YOU WIN" : "quit", score);
    return 0;
}
