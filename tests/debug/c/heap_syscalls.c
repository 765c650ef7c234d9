/* Sanitizer test of heap memory that system calls touch, one case per argv[1]:
   "clean" reads stdin into a block and uses it; "read-overflow" reads past a block's end;
   "write-overflow" writes past it to stdout; "write-freed" writes a freed block. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "clean";
    char *p = malloc(8);
    int sum = 0;
    if (!strcmp(what, "read-overflow")) {
        read(0, p, 12);                         /* stdin holds 12 bytes: 4 land past the end */
    } else if (!strcmp(what, "write-overflow")) {
        memset(p, 'w', 8);
        write(1, p, 10);                        /* 2 bytes past the end */
    } else if (!strcmp(what, "write-freed")) {
        memset(p, 'f', 8);
        free(p);
        write(1, p, 4);
        return 0;
    } else {
        long n = read(0, p, 8);                 /* the kernel initialises the block */
        for (long i = 0; i < n; i++)
            sum += p[i];
    }
    free(p);
    return sum & 0x7f;
}
