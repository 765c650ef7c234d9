#include <stdio.h>
struct point { int x, y; };
struct rect { struct point lo, hi; char name[8]; };
struct point add(struct point a, struct point b) { struct point r; r.x = a.x + b.x; r.y = a.y + b.y; return r; }
int area(struct rect r) { return (r.hi.x - r.lo.x) * (r.hi.y - r.lo.y); }
void clobber(struct point p) { p.x = 999; p.y = 999; }
struct rect make(int w, int h) { struct rect r = {{0, 0}, {0, 0}, "box"}; r.hi.x = w; r.hi.y = h; return r; }
int main(void) {
    struct point a = {1, 2}, b = {10, 20}, c;
    struct rect r;
    c = add(a, b);
    clobber(c);
    printf("c = (%d, %d)\n", c.x, c.y);
    r = make(3, 4);
    printf("%s area %d\n", r.name, area(r));
    r.lo = add(r.lo, a);
    printf("area after move %d\n", area(r));
    printf("sizes %d %d\n", (int)sizeof(struct point), (int)sizeof(struct rect));
    return 0;
}
