#include <stdio.h>
int main(void) {
    FILE *f = fopen("ncc_stdio.txt", "w"); char line[32]; int n = 0;
    fprintf(f, "alpha %d\nbeta %d\n", 1, 2);
    fputs("gamma\n", f);
    fclose(f);
    f = fopen("ncc_stdio.txt", "r");
    while (fgets(line, sizeof line, f)) printf("%d: %s", ++n, line);
    fclose(f);
    printf("missing: %d\n", fopen("no/such/file", "r") == 0);
    return 0;
}
