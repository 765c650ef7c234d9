#include <stdio.h>
struct inner { char tag; short vals[3]; };
struct middle { int id; struct inner in[2]; };
struct outer { struct middle m; long total; struct outer *self; };
int main(void) {
    struct outer o; int i, j;
    o.self = &o; o.m.id = 7; o.total = 0;
    for (i = 0; i < 2; i++) { o.m.in[i].tag = 'a' + i; for (j = 0; j < 3; j++) o.self->m.in[i].vals[j] = i * 10 + j; }
    for (i = 0; i < 2; i++) for (j = 0; j < 3; j++) o.total += o.m.in[i].vals[j];
    printf("%d %c %c %ld %d\n", o.self->self->m.id, o.m.in[0].tag, o.m.in[1].tag, o.total, o.m.in[1].vals[2]);
    printf("%d %d %d\n", (int)sizeof(struct inner), (int)sizeof(struct middle), (int)sizeof(struct outer));
    return 0;
}
