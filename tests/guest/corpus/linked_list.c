#include <stdio.h>
#include <stdlib.h>
typedef struct node { int value; struct node *next; } node;
node *push(node *head, int v) { node *n = malloc(sizeof(node)); n->value = v; n->next = head; return n; }
node *reverse(node *h) { node *prev = 0, *next; while (h) { next = h->next; h->next = prev; prev = h; h = next; } return prev; }
int main(void) {
    node *list = 0, *p; int i, sum = 0;
    for (i = 1; i <= 10; i++) list = push(list, i * i);
    list = reverse(list);
    for (p = list; p; p = p->next) { printf("%d ", p->value); sum += p->value; }
    printf("\nsum %d\n", sum);
    while (list) { p = list->next; free(list); list = p; }
    return 0;
}
