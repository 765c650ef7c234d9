#include <stdio.h>
enum color { RED, GREEN = 5, BLUE, ALPHA = BLUE * 2 };
typedef enum { OFF, ON } state;
char *name(enum color c) { switch (c) { case RED: return "red"; case GREEN: return "green"; case BLUE: return "blue"; default: return "?"; } }
int main(void) {
    enum color c = BLUE; state s = ON; int arr[ALPHA];
    printf("%d %d %d %d\n", RED, GREEN, BLUE, ALPHA);
    printf("%s %s %d\n", name(c), name(RED), s);
    printf("%d\n", (int)(sizeof(arr) / sizeof(arr[0])));
    return 0;
}
