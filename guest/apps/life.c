/* Conway's game of life on a torus: life GENERATIONS < grid (rows of '.' and '#'),
 * prints the grid after that many generations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXW 256
#define MAXH 256

static char grid[MAXH][MAXW], next[MAXH][MAXW];
static int w, h;

static void step(void) {
    int y, x, dy, dx, n;
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            n = 0;
            for (dy = -1; dy <= 1; dy++)
                for (dx = -1; dx <= 1; dx++)
                    if (dy || dx) n += grid[(y + dy + h) % h][(x + dx + w) % w];
            next[y][x] = n == 3 || (n == 2 && grid[y][x]);
        }
    memcpy(grid, next, sizeof grid);
}

int main(int argc, char **argv) {
    char line[MAXW + 2];
    int gens = argc > 1 ? atoi(argv[1]) : 1, g, y, x, len;
    while (h < MAXH && fgets(line, sizeof line, stdin)) {
        len = strlen(line);
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (!len) continue;
        if (len > w) w = len;
        for (x = 0; x < len; x++) grid[h][x] = line[x] == '#';
        h++;
    }
    for (g = 0; g < gens; g++) step();
    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) putchar(grid[y][x] ? '#' : '.');
        putchar('\n');
    }
    return 0;
}
