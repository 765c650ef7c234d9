#include <stdio.h>
#include <stdlib.h>
typedef struct { int *data; int len, cap; } vec;
void vpush(vec *v, int x) { if (v->len == v->cap) { v->cap = v->cap ? v->cap * 2 : 4; v->data = realloc(v->data, v->cap * sizeof(int)); } v->data[v->len++] = x; }
int main(void) {
    vec v = {0, 0, 0}; int i; long s = 0;
    for (i = 0; i < 1000; i++) vpush(&v, i * 3 % 17);
    for (i = 0; i < v.len; i++) s += v.data[i];
    printf("len %d cap %d sum %ld last %d\n", v.len, v.cap, s, v.data[v.len - 1]);
    return 0;
}
