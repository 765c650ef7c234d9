#include <stdio.h>
int is_odd(int n);
int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
int depth(int n) { char pad[64]; pad[n % 64] = n; return n == 0 ? pad[0] : 1 + depth(n - 1); }
int main(void) {
    printf("%d %d %d %d\n", is_even(10), is_odd(7), is_even(3), is_odd(100));
    printf("%d\n", depth(5000));
    return 0;
}
