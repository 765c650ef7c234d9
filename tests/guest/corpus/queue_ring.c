#include <stdio.h>
#define CAP 8
struct ring { int buf[CAP]; unsigned head, tail; };
int push(struct ring *r, int v) { if (r->tail - r->head == CAP) return 0; r->buf[r->tail++ % CAP] = v; return 1; }
int pop(struct ring *r, int *v) { if (r->head == r->tail) return 0; *v = r->buf[r->head++ % CAP]; return 1; }
int main(void) {
    struct ring r = {{0}, 0, 0}; int i, v, pushed = 0;
    for (i = 0; i < 12; i++) pushed += push(&r, i);
    printf("pushed %d\n", pushed);
    for (i = 0; i < 5; i++) { pop(&r, &v); printf("%d ", v); }
    for (i = 100; i < 104; i++) push(&r, i);
    while (pop(&r, &v)) printf("%d ", v);
    printf("\n");
    return 0;
}
