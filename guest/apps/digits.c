/* Handwritten digit classifier: an MLP (64-32-10, ReLU) in integer fixed point.
 * Each stdin line holds 64 pixel values (0..16); prints the predicted digit per line. */
#include <stdio.h>
#include <stdlib.h>
#include "digits_weights.h"

int main(void) {
    char line[1024], *p;
    long x[64], h[HIDDEN], out, best_out;
    int i, j, best, n;
    while (fgets(line, sizeof line, stdin)) {
        p = line;
        for (n = 0; n < 64; n++) {
            x[n] = strtol(p, &p, 10);
        }
        for (j = 0; j < HIDDEN; j++) {
            h[j] = b1[j];
            for (i = 0; i < 64; i++) h[j] += x[i] * w1[i * HIDDEN + j];
            if (h[j] < 0) h[j] = 0;
        }
        best = 0;
        best_out = 0;
        for (j = 0; j < 10; j++) {
            out = b2[j] * 256;
            for (i = 0; i < HIDDEN; i++) out += h[i] * w2[i * 10 + j];
            if (j == 0 || out > best_out) {
                best = j;
                best_out = out;
            }
        }
        printf("%d\n", best);
    }
    return 0;
}
