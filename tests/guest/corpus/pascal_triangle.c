#include <stdio.h>
int main(void) { long row[20] = {1}; int n, k; for (n = 0; n < 15; n++) { for (k = n; k > 0; k--) row[k] += row[k - 1]; for (k = 0; k <= n; k++) printf("%ld ", row[k]); printf("\n"); } return 0; }
