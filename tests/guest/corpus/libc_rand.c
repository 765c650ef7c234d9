#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int i;
    for (i = 0; i < 5; i++) printf("%d\n", rand());
    srand(42);
    for (i = 0; i < 5; i++) printf("%d\n", rand() % 1000);
    srand(1);
    printf("%d\n", rand());
    return 0;
}
