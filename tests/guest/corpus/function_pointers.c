#include <stdio.h>
int add(int a, int b) { return a + b; }
int sub(int a, int b) { return a - b; }
int mul(int a, int b) { return a * b; }
typedef int (*binop)(int, int);
binop table[] = {add, sub, mul};
char *names[] = {"add", "sub", "mul"};
int fold(binop f, int *v, int n) { int acc = v[0], i; for (i = 1; i < n; i++) acc = f(acc, v[i]); return acc; }
int apply(int (*f)(int, int), int x) { return (*f)(x, x); }
int main(void) {
    int v[] = {3, 4, 5, 6}, i;
    for (i = 0; i < 3; i++) printf("%s: fold=%d apply=%d\n", names[i], fold(table[i], v, 4), apply(table[i], 7));
    return 0;
}
