#include <stdio.h>
#define SQ(x) ((x) * (x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define CLAMP(v, lo, hi) MIN(MAX(v, lo), hi)
#define SWAP(t, a, b) do { t tmp_ = a; a = b; b = tmp_; } while (0)
#define CALL(f, args) f args
#define STR(x) #x
#define NOARGS() 17
int main(void) {
    int a = 3, b = 9, i;
    printf("%d %d %d\n", SQ(a + 1), MAX(a, b), MIN(a, b));
    for (i = -5; i < 20; i += 6) printf("%d ", CLAMP(i, 0, 10));
    printf("\n");
    SWAP(int, a, b);
    printf("%d %d\n", a, b);
    CALL(printf, ("%s %d\n", "called", NOARGS()));
    printf("%s %s\n", STR(hello world), STR(1 + 2));
    printf("%d\n", SQ(SQ(2)));
    return 0;
}
