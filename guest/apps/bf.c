/* A Brainfuck interpreter: bf PROGRAM.bf (input from stdin, 30000 byte cells that wrap).
 * Unbalanced brackets are reported before anything runs, with exit status 1. */
#include <stdio.h>
#include <stdlib.h>

#define TAPE 30000

static char *read_all(char *path, long *len) {
    FILE *f = fopen(path, "r");
    char *buf;
    long cap = 4096, n = 0;
    int c;
    if (!f) return 0;
    buf = malloc(cap);
    while ((c = fgetc(f)) != EOF) {
        if (n + 1 >= cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        buf[n++] = c;
    }
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

int main(int argc, char **argv) {
    long n, i, sp = 0, *match, *stack;
    unsigned char *tape;
    long ptr = 0;
    char *prog;
    int c;
    if (argc != 2) {
        fprintf(stderr, "usage: bf PROGRAM.bf\n");
        return 2;
    }
    prog = read_all(argv[1], &n);
    if (!prog) {
        fprintf(stderr, "bf: cannot open %s\n", argv[1]);
        return 2;
    }
    match = malloc((n + 1) * sizeof(long));
    stack = malloc((n + 1) * sizeof(long));
    for (i = 0; i < n; i++) {
        if (prog[i] == '[') stack[sp++] = i;
        else if (prog[i] == ']') {
            if (sp == 0) {
                fprintf(stderr, "bf: unmatched ']' at offset %ld\n", i);
                return 1;
            }
            match[i] = stack[--sp];
            match[stack[sp]] = i;
        }
    }
    if (sp) {
        fprintf(stderr, "bf: unmatched '[' at offset %ld\n", stack[sp - 1]);
        return 1;
    }
    tape = calloc(TAPE, 1);
    for (i = 0; i < n; i++) {
        switch (prog[i]) {
        case '>': if (++ptr == TAPE) ptr = 0; break;
        case '<': if (--ptr < 0) ptr = TAPE - 1; break;
        case '+': tape[ptr]++; break;
        case '-': tape[ptr]--; break;
        case '.': putchar(tape[ptr]); break;
        case ',': c = getchar(); if (c != EOF) tape[ptr] = c; break;
        case '[': if (!tape[ptr]) i = match[i]; break;
        case ']': if (tape[ptr]) i = match[i]; break;
        }
    }
    return 0;
}
