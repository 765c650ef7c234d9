#include <stdio.h>
#include <setjmp.h>
static jmp_buf env, env2;
static int depth(int n) { if (n == 0) longjmp(env, 99); return depth(n - 1) + 1; }
static void inner(void) { longjmp(env2, 2); }
int main(void) {
    volatile int count = 0;
    int r = setjmp(env);
    count++;
    if (r == 0) { printf("first %d\n", count); depth(100); }
    printf("back r=%d count=%d\n", r, count);
    for (volatile int i = 0; i < 3; i++) {
        int q = setjmp(env2);
        if (!q) inner(); else printf("loop %d q=%d\n", i, q);
    }
    volatile double d = 1.25; if (!setjmp(env)) { d *= 2; longjmp(env, 0); } printf("d=%g\n", d);
    return 0;
}
