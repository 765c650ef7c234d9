#include <stdio.h>
#include <stdlib.h>
struct node { int key; struct node *l, *r; }; struct item { int v; struct item *next; };
static struct node *ins(struct node *t, int k) { if (!t) { t = calloc(1, sizeof *t); t->key = k; return t; } if (k < t->key) t->l = ins(t->l, k); else if (k > t->key) t->r = ins(t->r, k); return t; }
static int height(struct node *t) { if (!t) return 0; int a = height(t->l), b = height(t->r); return 1 + (a > b ? a : b); }
static long walk(struct node *t, long *i) { if (!t) return 0; long s = walk(t->l, i); s += t->key * ++*i; return s + walk(t->r, i); }
static void drop(struct node *t) { if (t) { drop(t->l); drop(t->r); free(t); } }
int main(void) { struct node *t = 0; unsigned x = 1; for (int i = 0; i < 20000; i++) { x = x * 1103515245 + 12345; t = ins(t, (x >> 8) % 50000); }
  long i = 0; long s = walk(t, &i); printf("n %ld h %d s %ld\n", i, height(t), s); drop(t);
  struct item *head = 0; for (int k = 0; k < 1000; k++) { struct item *it = malloc(sizeof *it); it->v = k; it->next = head; head = it; }
  struct item *prev = 0; while (head) { struct item *n = head->next; head->next = prev; prev = head; head = n; } long w = 0; int k = 0; for (struct item *p = prev; p; p = p->next) w += (long)p->v * ++k; printf("list %ld\n", w);
  while (prev) { struct item *n = prev->next; free(prev); prev = n; } return 0; }
