/* Call-heavy benchmark: recursion, calls through function pointers, and qsort with a comparator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int ack(int m, int n) { return m == 0 ? n + 1 : n == 0 ? ack(m - 1, 1) : ack(m - 1, ack(m, n - 1)); }
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mix(int a, int b) { return a * 31 + b; }
static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
int main(int argc, char **argv) {
    int scale = argc > 1 ? atoi(argv[1]) : 10;
    long total = 0;
    int (*ops[3])(int, int) = {add, sub, mix};
    static char words[4000][12];
    static char *ptr[4000];
    for (int r = 0; r < scale; r++) {
        total += fib(20) + ack(2, 200 + r);
        int acc = r;
        for (int i = 0; i < 100000; i++) acc = ops[i % 3](acc, i);
        total += acc;
        unsigned s = 12345 + r;
        for (int i = 0; i < 4000; i++) {
            for (int k = 0; k < 11; k++) { s = s * 1103515245 + 12345; words[i][k] = 'a' + (s >> 16) % 26; }
            words[i][11] = 0; ptr[i] = words[i];
        }
        qsort(ptr, 4000, sizeof ptr[0], by_name);
        total += ptr[0][0] + ptr[3999][1];
    }
    printf("%ld\n", total);
    return 0;
}
