#include <stdio.h>
struct city { char *name; int pop; int coords[2]; };
struct city cities[] = {{"Oslo", 700, {59, 10}}, {"Lima", 9700, {-12, -77}}, {"Pune", 3100, {18, 73}}};
int main(void) {
    int i, n = sizeof(cities) / sizeof(cities[0]);
    struct city local[2] = {{"A", 1, {2, 3}}, {"B"}};
    for (i = 0; i < n; i++) printf("%s %d (%d,%d)\n", cities[i].name, cities[i].pop, cities[i].coords[0], cities[i].coords[1]);
    printf("%s %d %d | %s %d %d\n", local[0].name, local[0].pop, local[0].coords[1], local[1].name, local[1].pop, local[1].coords[0]);
    return 0;
}
