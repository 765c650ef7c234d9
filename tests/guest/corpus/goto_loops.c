#include <stdio.h>
int main(void) {
    int i = 0, j, found = 0;
loop:
    if (i >= 10) goto done;
    for (j = 0; j < 10; j++) if (i * j == 42) { found = i * 100 + j; goto out; }
    i++;
    goto loop;
out:
    printf("found %d\n", found);
done:
    printf("i=%d\n", i);
    return 0;
}
