#include <stdio.h>
#include "inc/shapes.h"
#include "inc/shapes.h"
int main(void) {
    struct square s;
    s.side = 7;
    printf("%d %d\n", square_area(s), SHAPES);
    return 0;
}
