#include <stdio.h>
int counter = 5;
long big = 1L << 40;
char greeting[] = "hi there";
char *msg = "pointer to string";
int primes[] = {2, 3, 5, 7, 11, 13};
short shorts[5] = {1, -2, 3};
struct pair { int a; char b; long c; } pairs[2] = {{1, 'x', 100}, {2, 'y', -100}};
int *pcounter = &counter;
static int hidden = -7;
unsigned char bytes[4] = {255, 128, 0, 1};
int main(void) {
    int i;
    printf("%d %ld %s %s\n", counter, big, greeting, msg);
    for (i = 0; i < (int)(sizeof(primes) / sizeof(int)); i++) printf("%d ", primes[i]);
    printf("\n%d %d %d %d %d\n", shorts[0], shorts[1], shorts[2], shorts[3], shorts[4]);
    printf("%d %c %ld / %d %c %ld\n", pairs[0].a, pairs[0].b, pairs[0].c, pairs[1].a, pairs[1].b, pairs[1].c);
    *pcounter = 9; printf("%d %d\n", counter, hidden);
    printf("%d %d %d %d %d\n", bytes[0], bytes[1], bytes[2], bytes[3], (int)sizeof(greeting));
    return 0;
}
