#include <stdio.h>
#define WIDTH 80
#define HEIGHT (WIDTH / 4)
#define AREA WIDTH * HEIGHT
#define GREETING "hi"
#define EMPTY
#define STMT printf("stmt\n");
int main(void) {
    printf("%d %d %d %s\n", WIDTH, HEIGHT, AREA, GREETING);
    EMPTY STMT
#undef WIDTH
#define WIDTH 10
    printf("%d %d\n", WIDTH, HEIGHT);
    return 0;
}
