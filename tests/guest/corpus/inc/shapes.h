#ifndef SHAPES_H
#define SHAPES_H
struct square { int side; };
static int square_area(struct square s) { return s.side * s.side; }
#define SHAPES 2
#endif
