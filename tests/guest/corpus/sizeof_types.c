#include <stdio.h>
struct s1 { char c; int i; };
struct s2 { char c; long l; char d; };
struct s3 { short a; char b; };
union u1 { char c[5]; int i; };
int main(void) {
    int arr[7]; long *lp;
    printf("%d %d %d %d %d\n", (int)sizeof(char), (int)sizeof(short), (int)sizeof(int), (int)sizeof(long), (int)sizeof(long long));
    printf("%d %d %d %d\n", (int)sizeof(struct s1), (int)sizeof(struct s2), (int)sizeof(struct s3), (int)sizeof(union u1));
    printf("%d %d %d %d\n", (int)sizeof(arr), (int)sizeof arr[0], (int)sizeof(lp), (int)sizeof(*lp));
    printf("%d %d\n", (int)sizeof(int *[3]), (int)sizeof(int (*)[3]));
    return 0;
}
