/* A small program for debugger tests: functions, locals, a global struct, a string. */
#include <stdio.h>

struct point { int x; int y; const char *name; };

struct point origin = {3, 4, "origin"};
int counter = 0;
const char *greeting = "hello, debugger";

int square(int n)
{
    int result = n * n;
    return result;
}

void bump(int by)
{
    counter += by;
}

int main(void)
{
    int total = 0;
    for (int i = 1; i <= 4; i++) {
        total += square(i);
        bump(i);
    }
    origin.x = total;
    printf("%s %d %d\n", greeting, total, counter);
    fflush(stdout);
    return 0;
}
