/* Every process forks as fast as it can, forever: the machine's limits must hold. */
#include <unistd.h>

int main(void) {
    for (;;) fork();
}
