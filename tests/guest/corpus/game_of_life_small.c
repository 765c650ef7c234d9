#include <stdio.h>
#define W 10
#define H 8
char g[H][W], n[H][W];
int main(void) {
    int gen, y, x, dy, dx, c;
    g[1][2] = g[2][3] = g[3][1] = g[3][2] = g[3][3] = 1;
    for (gen = 0; gen < 8; gen++) {
        for (y = 0; y < H; y++) for (x = 0; x < W; x++) {
            c = 0;
            for (dy = -1; dy <= 1; dy++) for (dx = -1; dx <= 1; dx++) if (dy || dx) c += g[(y + dy + H) % H][(x + dx + W) % W];
            n[y][x] = c == 3 || (c == 2 && g[y][x]);
        }
        for (y = 0; y < H; y++) for (x = 0; x < W; x++) g[y][x] = n[y][x];
    }
    for (y = 0; y < H; y++) { for (x = 0; x < W; x++) putchar(g[y][x] ? '#' : '.'); putchar('\n'); }
    return 0;
}
