#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    char *blocks[200]; int i, j; long total = 0;
    for (i = 0; i < 200; i++) { blocks[i] = malloc(i * 37 + 1); memset(blocks[i], i & 255, i * 37 + 1); }
    for (i = 0; i < 200; i += 2) { free(blocks[i]); blocks[i] = 0; }
    for (i = 0; i < 200; i += 2) { blocks[i] = malloc(i * 11 + 3); memset(blocks[i], 1, i * 11 + 3); }
    for (i = 0; i < 200; i++) { int n = i % 2 ? i * 37 + 1 : i * 11 + 3; for (j = 0; j < n; j++) total += (unsigned char)blocks[i][j]; }
    printf("total %ld\n", total);
    blocks[0] = realloc(blocks[0], 5000); blocks[0][4999] = 9; printf("%d %d\n", blocks[0][0], blocks[0][4999]);
    {
        int *big = calloc(300000, sizeof(int));
        for (i = 0; i < 300000; i++) big[i] += i;
        printf("%d\n", big[299999]);
        free(big);
    }
    return 0;
}
