#include <stdio.h>
#define LEVEL 3
#define FEATURE
#if LEVEL > 2 && defined(FEATURE)
#define MODE "high"
#elif LEVEL > 1
#define MODE "mid"
#else
#define MODE "low"
#endif
#ifdef MISSING
#error should not happen
#endif
#ifndef MISSING
int missing_ok = 1;
#else
int missing_ok = 0;
#endif
#if 0
this is not C at all
#if nested
#endif
#else
int zero_else = 2;
#endif
#if defined FEATURE + 0 == 1
int defined_plain = 1;
#endif
#if (1 << 4) == 16 && -1 < 0 && 10 / 3 == 3 && !0 && (5 % 3 ? 1 : 0)
int arith_ok = 1;
#endif
int main(void) {
    printf("%s %d %d %d %d\n", MODE, missing_ok, zero_else, defined_plain, arith_ok);
#if LEVEL == 3
    printf("level three\n");
#endif
    return 0;
}
