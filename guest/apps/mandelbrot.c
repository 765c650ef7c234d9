/* The Mandelbrot set in 16.16 fixed point, as a binary PPM on stdout:
 * mandelbrot WIDTH HEIGHT MAXITER. Only multiplications and arithmetic shifts,
 * so a Python rendering of the same arithmetic gives the same bytes. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int w = argc > 1 ? atoi(argv[1]) : 64, h = argc > 2 ? atoi(argv[2]) : 48, maxit = argc > 3 ? atoi(argv[3]) : 64;
    int px, py, i;
    long cx, cy, x, y, x2, y2;
    printf("P6\n%d %d\n255\n", w, h);
    for (py = 0; py < h; py++)
        for (px = 0; px < w; px++) {
            cx = -163840 + (long)px * 229376 / w; /* -2.5 .. 1.0 */
            cy = -81920 + (long)py * 163840 / h;  /* -1.25 .. 1.25 */
            x = 0;
            y = 0;
            for (i = 0; i < maxit; i++) {
                x2 = (x * x) >> 16;
                y2 = (y * y) >> 16;
                if (x2 + y2 > (4L << 16)) break;
                y = ((x * y) >> 15) + cy;
                x = x2 - y2 + cx;
            }
            if (i == maxit) {
                putchar(0); putchar(0); putchar(0);
            } else {
                putchar(i * 7 % 256); putchar(i * 13 % 256); putchar(i * 29 % 256);
            }
        }
    return 0;
}
