#include <stdio.h>
static int op_inc(int x) { return x + 1; }
static int op_dbl(int x) { return x * 2; }
static int op_neg(int x) { return -x; }
static int op_sq(int x) { return x * x; }
struct op { char code; int (*fn)(int); } ops[] = {{'i', op_inc}, {'d', op_dbl}, {'n', op_neg}, {'s', op_sq}};
int run(char *prog, int x) { int i; for (; *prog; prog++) for (i = 0; i < 4; i++) if (ops[i].code == *prog) x = ops[i].fn(x); return x; }
int main(void) { printf("%d %d %d\n", run("iids", 1), run("snd", 3), run("", 9)); return 0; }
