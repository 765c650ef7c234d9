#include <stdio.h>
int next_id(void) { static int id = 100; return id++; }
int calls(void) { static int n; return ++n; }
char *label(int i) { static char buf[16]; sprintf(buf, "item-%d", i); return buf; }
int main(void) {
    int i;
    for (i = 0; i < 3; i++) printf("%d %d %s\n", next_id(), calls(), label(i));
    return 0;
}
