#include <stdio.h>
#include <string.h>
void swap(void *a, void *b, int size) { char t[64]; memcpy(t, a, size); memcpy(a, b, size); memcpy(b, t, size); }
int main(void) {
    int x = 1, y = 2; long p = 10, q = 20; char s[8] = "left", t[8] = "right"; void *v = &x;
    swap(&x, &y, sizeof(int)); swap(&p, &q, sizeof(long)); swap(s, t, 8);
    printf("%d %d %ld %ld %s %s %d\n", x, y, p, q, s, t, *(int *)v);
    return 0;
}
