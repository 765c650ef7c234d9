#include <stdio.h>
int data[5] = {5, 4, 3, 2, 1};
int *largest(int *a, int n) { int *best = a; int i; for (i = 1; i < n; i++) if (a[i] > *best) best = a + i; return best; }
char *skip_spaces(char *s) { while (*s == ' ') s++; return s; }
int main(void) { int *p = largest(data, 5); *p = 50; printf("%d %d %s|\n", data[0], (int)(p - data), skip_spaces("   trimmed")); return 0; }
