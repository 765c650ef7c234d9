#include <stdio.h>
union word { unsigned int u; unsigned char b[4]; unsigned short h[2]; };
struct tagged { int kind; union { long i; char *s; } v; };
void show(struct tagged *t) { if (t->kind) printf("str %s\n", t->v.s); else printf("int %ld\n", t->v.i); }
int main(void) {
    union word w; struct tagged a, b;
    w.u = 0x11223344;
    printf("%x %x %x %x | %x %x | %d\n", w.b[0], w.b[1], w.b[2], w.b[3], w.h[0], w.h[1], (int)sizeof(w));
    w.b[3] = 0xff; printf("%x\n", w.u);
    a.kind = 0; a.v.i = -5; b.kind = 1; b.v.s = "text";
    show(&a); show(&b);
    printf("%d\n", (int)sizeof(struct tagged));
    return 0;
}
