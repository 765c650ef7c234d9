/* FP-heavy benchmark: a small n-body simulation and a dense matrix product in double precision. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define N 5
static double x[N], y[N], z[N], vx[N], vy[N], vz[N], m[N];
static void step(double dt) {
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++) {
            double dx = x[i] - x[j], dy = y[i] - y[j], dz = z[i] - z[j];
            double d2 = dx * dx + dy * dy + dz * dz + 0.01, mag = dt / (d2 * sqrt(d2));
            vx[i] -= dx * m[j] * mag; vy[i] -= dy * m[j] * mag; vz[i] -= dz * m[j] * mag;
            vx[j] += dx * m[i] * mag; vy[j] += dy * m[i] * mag; vz[j] += dz * m[i] * mag;
        }
    for (int i = 0; i < N; i++) { x[i] += dt * vx[i]; y[i] += dt * vy[i]; z[i] += dt * vz[i]; }
}
int main(int argc, char **argv) {
    int scale = argc > 1 ? atoi(argv[1]) : 10;
    for (int i = 0; i < N; i++) { x[i] = i; y[i] = i * 0.5; z[i] = -i; m[i] = 1.0 + i; vx[i] = vy[i] = vz[i] = 0; }
    for (int s = 0; s < scale * 4000; s++) step(0.001);
    static double a[64][64], b[64][64], c[64][64];
    double trace = 0;
    for (int r = 0; r < scale; r++) {
        for (int i = 0; i < 64; i++) for (int j = 0; j < 64; j++) { a[i][j] = (i * 7 + j + r) % 13 / 7.0; b[i][j] = (i + j * 3) % 11 / 5.0; }
        for (int i = 0; i < 64; i++) for (int j = 0; j < 64; j++) { double s = 0; for (int k = 0; k < 64; k++) s += a[i][k] * b[k][j]; c[i][j] = s; }
        for (int i = 0; i < 64; i++) trace += c[i][i];
    }
    printf("%.9f %.9f %.9f %.6f\n", x[0], y[1], z[2], trace);
    return 0;
}
