#include <stdio.h>
static unsigned long ack(unsigned long m, unsigned long n) { return m == 0 ? n + 1 : n == 0 ? ack(m - 1, 1) : ack(m - 1, ack(m, n - 1)); }
static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static long deep(long n) { volatile char pad[64]; pad[0] = (char)n; return n == 0 ? 0 : deep(n - 1) + pad[0] % 3; }
static int hanoi(int n, int a, int b, int c) { return n == 0 ? 0 : hanoi(n - 1, a, c, b) + 1 + hanoi(n - 1, c, b, a); }
int main(void) {
    printf("ack(2,3)=%lu ack(3,3)=%lu\n", ack(2, 3), ack(3, 3));
    printf("fib(22)=%ld\n", fib(22));
    printf("deep=%ld\n", deep(30000));
    printf("hanoi=%d\n", hanoi(14, 1, 2, 3));
    return 0;
}
