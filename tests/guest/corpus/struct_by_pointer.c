#include <stdio.h>
#include <string.h>
struct account { char owner[16]; long balance; int history[4]; int n; };
void deposit(struct account *a, int amount) { a->balance += amount; a->history[a->n++ % 4] = amount; }
int main(void) {
    struct account acc;
    struct account *p = &acc;
    int i;
    memset(p, 0, sizeof(acc));
    strcpy(p->owner, "ada");
    for (i = 1; i <= 6; i++) deposit(p, i * 100);
    printf("%s has %ld after %d deposits\n", acc.owner, acc.balance, acc.n);
    for (i = 0; i < 4; i++) printf("history[%d] = %d\n", i, (*p).history[i]);
    return 0;
}
