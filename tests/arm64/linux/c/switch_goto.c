#include <stdio.h>
static int classify(int x) { switch (x) { case 0: return 10; case 1: return 11; case 2: return 12; case 3: return 15; case 4: return 19; case 5: return 2; case 6: return 99; case 7: return -1; case 100: return 7; case 1000: return 8; default: return x * 2; } }
static int vm(const unsigned char *code) { static void *ops[] = {&&halt, &&inc, &&dbl, &&dec, &&jnz}; int acc = 0, pc = 0, cnt = 5;
  #define NEXT goto *ops[code[pc++]]
  NEXT; inc: acc++; NEXT; dbl: acc *= 2; NEXT; dec: cnt--; NEXT; jnz: if (cnt) pc = code[pc]; else pc++; NEXT; halt: return acc; }
int main(void) { long s = 0; for (int i = -5; i < 1005; i++) s += classify(i) * (i % 3 + 1); printf("%ld\n", s);
  const unsigned char prog[] = {1, 2, 3, 4, 0, 0}; printf("vm %d\n", vm(prog)); return 0; }
