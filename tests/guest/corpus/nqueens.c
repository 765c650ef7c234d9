#include <stdio.h>
int n, count, cols[12];
int ok(int r, int c) { int i; for (i = 0; i < r; i++) if (cols[i] == c || cols[i] - c == i - r || cols[i] - c == r - i) return 0; return 1; }
void solve(int r) { int c; if (r == n) { count++; return; } for (c = 0; c < n; c++) if (ok(r, c)) { cols[r] = c; solve(r + 1); } }
int main(void) { for (n = 1; n <= 8; n++) { count = 0; solve(0); printf("%d queens: %d\n", n, count); } return 0; }
