#include <stdio.h>
int main(void) {
    int px, py, i;
    for (py = 0; py < 12; py++) {
        for (px = 0; px < 40; px++) {
            long x0 = (px - 28) * 4096 / 13, y0 = (py - 6) * 4096 / 5, x = 0, y = 0, t;
            for (i = 0; i < 30 && x * x + y * y < 4L * 4096 * 4096; i++) { t = (x * x - y * y) / 4096 + x0; y = 2 * x * y / 4096 + y0; x = t; }
            putchar(" .:-=+*#%@"[i % 10]);
        }
        putchar('\n');
    }
    return 0;
}
