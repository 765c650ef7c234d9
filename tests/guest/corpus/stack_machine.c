#include <stdio.h>
enum { PUSH, ADD, MUL, DUP, SWAP, PRINT, JNZ, DEC, HALT };
int prog[] = {PUSH, 1, PUSH, 5, SWAP, PRINT, DUP, PUSH, 0, ADD, MUL, SWAP, DEC, DUP, JNZ, 4, HALT};
int main(void) {
    long stack[64]; int sp = 0, pc = 0;
    /* computes 5! by a loop on a tiny stack machine */
    for (;;) {
        int op = prog[pc++]; long t;
        switch (op) {
        case PUSH: stack[sp++] = prog[pc++]; break;
        case ADD: sp--; stack[sp - 1] += stack[sp]; break;
        case MUL: sp--; stack[sp - 1] *= stack[sp]; break;
        case DUP: stack[sp] = stack[sp - 1]; sp++; break;
        case SWAP: t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t; break;
        case PRINT: printf("top %ld\n", stack[sp - 1]); break;
        case DEC: stack[sp - 1]--; break;
        case JNZ: if (stack[--sp]) pc = prog[pc]; else pc++; break;
        case HALT: printf("halt, sp=%d\n", sp); return 0;
        }
        if (pc > 100) break;
    }
    return 1;
}
