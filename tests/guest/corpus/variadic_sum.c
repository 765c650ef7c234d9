#include <stdio.h>
#include <stdarg.h>
long sum(int n, ...) { va_list ap; long s = 0; int i; va_start(ap, n); for (i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
long lsum(int n, ...) { va_list ap; long s = 0; va_start(ap, n); while (n--) s += va_arg(ap, long); va_end(ap); return s; }
void say(char *fmt, ...) { va_list ap; va_start(ap, fmt); printf("say: "); vprintf(fmt, ap); va_end(ap); }
char *first_str(int n, ...) { va_list ap; char *s; va_start(ap, n); s = va_arg(ap, char *); va_end(ap); return s; }
int main(void) {
    printf("%ld %ld %ld\n", sum(0), sum(3, 1, 2, 3), sum(5, -1, -2, -3, 100, 7));
    printf("%ld\n", lsum(2, 5000000000L, 6000000000L));
    say("%d apples and %s\n", 3, "pears");
    printf("%s\n", first_str(2, "first", "second"));
    return 0;
}
