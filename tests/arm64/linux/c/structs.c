#include <stdio.h>
#include <string.h>
#include <stddef.h>
struct inner { char c; double d; short s; };
struct outer { int id; struct inner in[3]; char name[13]; long long big; };
struct __attribute__((packed)) packed { char a; int b; short c; long long d; };
union pun { double d; unsigned long long u; unsigned char b[8]; float f[2]; };
static struct outer make(int id) { struct outer o; memset(&o, 0, sizeof o); o.id = id; for (int i = 0; i < 3; i++) { o.in[i].c = 'a' + i; o.in[i].d = id * 1.5 + i; o.in[i].s = (short)(id * 100 + i); } snprintf(o.name, sizeof o.name, "obj-%d", id); o.big = (long long)id << 40; return o; }
static double total(struct outer o) { double t = o.id + (double)o.big; for (int i = 0; i < 3; i++) t += o.in[i].d + o.in[i].s + o.in[i].c; return t; }
int main(void) { struct outer a = make(7), b = a; b.in[1].d = -1; printf("%zu %zu %zu %zu\n", sizeof(struct inner), sizeof(struct outer), offsetof(struct outer, name), sizeof(struct packed));
  printf("%s %.1f %.1f %.1f\n", a.name, total(a), total(b), a.in[1].d);
  struct packed p = {1, 0x12345678, 0x1234, 0x1122334455667788LL}; unsigned char raw[sizeof p]; memcpy(raw, &p, sizeof p); for (size_t i = 0; i < sizeof p; i++) printf("%02x", raw[i]); printf("\n");
  union pun u; u.d = -2.75; printf("%016llx %02x %g\n", u.u, u.b[7], (double)u.f[1]);
  struct outer arr[4]; for (int i = 0; i < 4; i++) arr[i] = make(i); double s = 0; for (int i = 0; i < 4; i++) s += total(arr[i]); printf("sum %.1f\n", s); return 0; }
