#include <stdio.h>
#define A B + 1
#define B C * 2
#define C 5
#define SELF SELF
#define ADD(x, y) ((x) + (y))
#define TWICE(f, x) f(f(x, x), f(x, x))
#define LOOP(i, n) for (i = 0; i < (n); i++)
int SELF = 3;
int main(void) {
    int i, s = 0;
    printf("%d %d\n", A, SELF);
    printf("%d\n", TWICE(ADD, 3));
    LOOP(i, 5) s += ADD(i, 1);
    printf("%d\n", s);
    return 0;
}
