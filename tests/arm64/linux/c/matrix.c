#include <stdio.h>
int main(void) { enum { N = 40 }; static double a[N][N], b[N][N], c[N][N]; static float fa[N][N], fc[N][N];
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) { a[i][j] = (i * 3 + j) % 11 - 5.5; b[i][j] = (i + j * 7) % 13 / 3.0; fa[i][j] = (float)(i - j) / 7.0f; }
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) { double s = 0; float fs = 0; for (int k = 0; k < N; k++) { s += a[i][k] * b[k][j]; fs += fa[i][k] * fa[k][j]; } c[i][j] = s; fc[i][j] = fs; }
  double tr = 0, fro = 0; float ftr = 0; for (int i = 0; i < N; i++) { tr += c[i][i]; ftr += fc[i][i]; for (int j = 0; j < N; j++) fro += c[i][j] * c[i][j]; }
  printf("trace %.10f fro %.6f ftrace %.6f c[3][5] %.12g\n", tr, fro, ftr, c[3][5]);
  double m[4][4] = {{4,1,2,0.5},{1,5,1,1},{2,1,6,2},{0.5,1,2,7}}; for (int k = 0; k < 4; k++) for (int i = k + 1; i < 4; i++) { double f = m[i][k] / m[k][k]; for (int j = k; j < 4; j++) m[i][j] -= f * m[k][j]; }
  double det = 1; for (int i = 0; i < 4; i++) det *= m[i][i]; printf("det %.12f\n", det); return 0; }
