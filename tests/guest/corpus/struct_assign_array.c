#include <stdio.h>
struct item { int id; char name[12]; long price; };
int main(void) {
    struct item shop[3] = {{1, "pen", 150}, {2, "ink", 990}, {3, "pad", 420}}, tmp;
    int i;
    tmp = shop[0]; shop[0] = shop[2]; shop[2] = tmp;
    shop[1].name[0] = 'I';
    for (i = 0; i < 3; i++) printf("%d %s %ld\n", shop[i].id, shop[i].name, shop[i].price);
    return 0;
}
