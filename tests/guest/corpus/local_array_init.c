#include <stdio.h>
int main(void) {
    int a[5] = {1, 2}; char s[10] = "hey"; char t[] = "implicit"; long big[100] = {5};
    int m[2][3] = {{1, 2, 3}, {4}}; int i; long sum = 0;
    printf("%d %d %d %d %d\n", a[0], a[1], a[2], a[3], a[4]);
    printf("%s %d %d %s %d\n", s, s[3], s[9], t, (int)sizeof(t));
    for (i = 0; i < 100; i++) sum += big[i];
    printf("%ld %d %d %d\n", sum, m[0][2], m[1][0], m[1][2]);
    return 0;
}
