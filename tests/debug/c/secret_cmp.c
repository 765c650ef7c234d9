/* Constant-time check test: compares 16 secret bytes from stdin with a key.
   argv[1] "early": returns at the first difference (leaks through its branch);
   otherwise: ORs all differences together (the same instructions and addresses
   for every secret).  The exit status is the result, so nothing after the
   comparison branches on it. */
#include <string.h>
#include <unistd.h>

static const unsigned char key[16] = "0123456789abcdef";

int compare_early(const unsigned char *a, const unsigned char *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i] != b[i])
            return 1;
    return 0;
}

int compare_ct(const unsigned char *a, const unsigned char *b, int n)
{
    unsigned char d = 0;
    for (int i = 0; i < n; i++)
        d |= a[i] ^ b[i];
    return (d + 255) >> 8;
}

int main(int argc, char **argv)
{
    unsigned char secret[16] = {0};
    if (read(0, secret, sizeof secret) < 0)
        return 2;
    if (argc > 1 && strcmp(argv[1], "early") == 0)
        return compare_early(secret, key, 16);
    return compare_ct(secret, key, 16);
}
