#include <stdio.h>
char *p;
long expr(void);
long atom(void) {
    long v = 0;
    if (*p == '(') { p++; v = expr(); p++; return v; }
    if (*p == '-') { p++; return -atom(); }
    while (*p >= '0' && *p <= '9') v = v * 10 + *p++ - '0';
    return v;
}
long term(void) { long v = atom(); while (*p == '*' || *p == '/' || *p == '%') { char op = *p++; long r = atom(); v = op == '*' ? v * r : op == '/' ? v / r : v % r; } return v; }
long expr(void) { long v = term(); while (*p == '+' || *p == '-') { char op = *p++; long r = term(); v = op == '+' ? v + r : v - r; } return v; }
int main(void) {
    char *tests[] = {"1+2*3", "(1+2)*3", "100/7%4", "-(3-10)*2", "2*(3+(4-1)*5)/3", "123456789*1000"};
    int i;
    for (i = 0; i < 6; i++) { p = tests[i]; printf("%s = %ld\n", tests[i], expr()); }
    return 0;
}
