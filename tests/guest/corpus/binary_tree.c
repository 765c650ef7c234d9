#include <stdio.h>
#include <stdlib.h>
struct tree { int key; struct tree *left, *right; };
struct tree *insert(struct tree *t, int k) {
    if (!t) { t = calloc(1, sizeof(struct tree)); t->key = k; return t; }
    if (k < t->key) t->left = insert(t->left, k); else if (k > t->key) t->right = insert(t->right, k);
    return t;
}
int height(struct tree *t) { int a, b; if (!t) return 0; a = height(t->left); b = height(t->right); return 1 + (a > b ? a : b); }
void walk(struct tree *t) { if (!t) return; walk(t->left); printf("%d ", t->key); walk(t->right); }
int main(void) {
    struct tree *root = 0; int i; unsigned x = 7;
    for (i = 0; i < 40; i++) { x = x * 75 % 65537; root = insert(root, x % 200); }
    walk(root); printf("\nheight %d\n", height(root));
    return 0;
}
