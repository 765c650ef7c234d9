/* A small Forth: reads lines from stdin, answers " ok" after each.
 * Integer stack, : ; definitions, IF ELSE THEN, DO LOOP I, BEGIN UNTIL, RECURSE,
 * VARIABLE @ !, . .S CR EMIT, + - * / MOD = < > DUP DROP SWAP OVER ROT. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <ctype.h>

enum { OP_LIT = 1000, OP_CALL, OP_EXIT, OP_BRANCH, OP_ZBRANCH, OP_DO, OP_LOOP, OP_I, OP_PRIM };
enum { P_ADD, P_SUB, P_MUL, P_DIV, P_MOD, P_EQ, P_LT, P_GT, P_DUP, P_DROP, P_SWAP, P_OVER, P_ROT,
       P_DOT, P_DOTS, P_CR, P_EMIT, P_FETCH, P_STORE, NPRIM };
static char *prim_names[] = {"+", "-", "*", "/", "MOD", "=", "<", ">", "DUP", "DROP", "SWAP", "OVER", "ROT",
                             ".", ".S", "CR", "EMIT", "@", "!"};

struct word { char name[32]; int kind; long value; }; /* kind: 0 primitive, 1 colon, 2 variable */
static struct word dict[512];
static int nwords;
static long code[8192];
static int here;
static long stack[256], rstack[256], vars[256];
static int sp, rsp, nvars;
static int compiling, current, ctl[64], nctl;
static char *err;

static void push(long v) { if (sp < 256) stack[sp++] = v; else err = "stack overflow"; }
static long pop(void) { if (sp > 0) return stack[--sp]; err = "stack underflow"; return 0; }

static int find(char *name) {
    int i;
    for (i = nwords - 1; i >= 0; i--)
        if (!strcmp(dict[i].name, name)) return i;
    return -1;
}

static void prim(int p) {
    long a, b, c;
    int i;
    switch (p) {
    case P_ADD: b = pop(); a = pop(); push(a + b); break;
    case P_SUB: b = pop(); a = pop(); push(a - b); break;
    case P_MUL: b = pop(); a = pop(); push(a * b); break;
    case P_DIV: b = pop(); a = pop(); if (b) push(a / b); else err = "division by zero"; break;
    case P_MOD: b = pop(); a = pop(); if (b) push(a % b); else err = "division by zero"; break;
    case P_EQ: b = pop(); a = pop(); push(a == b ? -1 : 0); break;
    case P_LT: b = pop(); a = pop(); push(a < b ? -1 : 0); break;
    case P_GT: b = pop(); a = pop(); push(a > b ? -1 : 0); break;
    case P_DUP: a = pop(); push(a); push(a); break;
    case P_DROP: pop(); break;
    case P_SWAP: b = pop(); a = pop(); push(b); push(a); break;
    case P_OVER: b = pop(); a = pop(); push(a); push(b); push(a); break;
    case P_ROT: c = pop(); b = pop(); a = pop(); push(b); push(c); push(a); break;
    case P_DOT: a = pop(); if (!err) printf("%ld ", a); break;
    case P_DOTS: printf("<%d> ", sp); for (i = 0; i < sp; i++) printf("%ld ", stack[i]); break;
    case P_CR: printf("\n"); break;
    case P_EMIT: putchar((int)pop()); break;
    case P_FETCH: a = pop(); if (a >= 0 && a < nvars) push(vars[a]); else err = "bad address"; break;
    case P_STORE: a = pop(); b = pop(); if (a >= 0 && a < nvars) vars[a] = b; else err = "bad address"; break;
    }
}

static void run(int pc) {
    long steps = 0, a;
    int depth = rsp;
    while (!err) {
        long op = code[pc++];
        if (++steps > 100000000) { err = "too many steps"; return; }
        if (op < OP_LIT) { prim(op); continue; }
        switch (op) {
        case OP_LIT: push(code[pc++]); break;
        case OP_CALL:
            if (rsp >= 250) { err = "return stack overflow"; return; }
            rstack[rsp++] = pc + 1;
            pc = code[pc];
            break;
        case OP_EXIT:
            if (rsp == depth) return;
            pc = rstack[--rsp];
            break;
        case OP_BRANCH: pc = code[pc]; break;
        case OP_ZBRANCH: if (pop() == 0) pc = code[pc]; else pc++; break;
        case OP_DO:
            if (rsp >= 248) { err = "return stack overflow"; return; }
            a = pop();
            rstack[rsp++] = pop(); /* limit */
            rstack[rsp++] = a;     /* index */
            break;
        case OP_LOOP:
            if (++rstack[rsp - 1] < rstack[rsp - 2]) pc = code[pc];
            else { rsp -= 2; pc++; }
            break;
        case OP_I: push(rsp >= 1 ? rstack[rsp - 1] : 0); break;
        }
    }
}

static void emit(long v) { if (here < 8192) code[here++] = v; else err = "dictionary full"; }

static int number(char *s, long *v) {
    char *end;
    if (!*s || (!isdigit(*s) && !(*s == '-' && isdigit(s[1])))) return 0;
    *v = strtol(s, &end, 10);
    return *end == 0;
}

static void upcase(char *s) { for (; *s; s++) *s = toupper(*s); }

int next_name(char **rest, char *name);

static void word(char *tok, char **rest) {
    int w;
    long v;
    char name[32];
    if (!strcmp(tok, ":")) {
        if (next_name(rest, name)) return;
        current = nwords;
        strcpy(dict[nwords].name, name);
        dict[nwords].kind = 1;
        dict[nwords].value = here;
        compiling = 1;
        nctl = 0;
        return;
    }
    if (!strcmp(tok, "VARIABLE")) {
        if (next_name(rest, name)) return;
        strcpy(dict[nwords].name, name);
        dict[nwords].kind = 2;
        dict[nwords].value = nvars++;
        nwords++;
        return;
    }
    if (compiling) {
        if (!strcmp(tok, ";")) { emit(OP_EXIT); compiling = 0; if (nctl) err = "unbalanced control structure"; else nwords++; return; }
        if (!strcmp(tok, "IF")) { emit(OP_ZBRANCH); ctl[nctl++] = here; emit(0); return; }
        if (!strcmp(tok, "ELSE")) { if (!nctl) { err = "ELSE without IF"; return; } emit(OP_BRANCH); emit(0); code[ctl[nctl - 1]] = here; ctl[nctl - 1] = here - 1; return; }
        if (!strcmp(tok, "THEN")) { if (!nctl) { err = "THEN without IF"; return; } code[ctl[--nctl]] = here; return; }
        if (!strcmp(tok, "DO")) { emit(OP_DO); ctl[nctl++] = here; return; }
        if (!strcmp(tok, "LOOP")) { if (!nctl) { err = "LOOP without DO"; return; } emit(OP_LOOP); emit(ctl[--nctl]); return; }
        if (!strcmp(tok, "BEGIN")) { ctl[nctl++] = here; return; }
        if (!strcmp(tok, "UNTIL")) { if (!nctl) { err = "UNTIL without BEGIN"; return; } emit(OP_ZBRANCH); emit(ctl[--nctl]); return; }
        if (!strcmp(tok, "I")) { emit(OP_I); return; }
        if (!strcmp(tok, "RECURSE")) { emit(OP_CALL); emit(dict[current].value); return; }
    }
    w = find(tok);
    if (w >= 0) {
        if (dict[w].kind == 0) { if (compiling) emit(dict[w].value); else prim(dict[w].value); }
        else if (dict[w].kind == 2) { if (compiling) { emit(OP_LIT); emit(dict[w].value); } else push(dict[w].value); }
        else if (compiling) { emit(OP_CALL); emit(dict[w].value); }
        else run(dict[w].value);
        return;
    }
    if (number(tok, &v)) {
        if (compiling) { emit(OP_LIT); emit(v); } else push(v);
        return;
    }
    printf("%s ? ", tok);
    err = "";
}

/* the next token of the line, upper-cased, into name; 1 if there is none */
int next_name(char **rest, char *name) {
    char *p = *rest;
    int n = 0;
    while (*p == ' ' || *p == '\t') p++;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n' && n < 31) name[n++] = *p++;
    name[n] = 0;
    *rest = p;
    upcase(name);
    if (!n) { err = "name expected"; return 1; }
    return 0;
}

int main(void) {
    char line[1024], tok[64], *p;
    int i, n;
    for (i = 0; i < NPRIM; i++) {
        strcpy(dict[i].name, prim_names[i]);
        dict[i].value = i;
    }
    nwords = NPRIM;
    while (fgets(line, sizeof line, stdin)) {
        p = line;
        err = 0;
        for (;;) {
            while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
            if (!*p) break;
            if (*p == '\\') break;
            if (p[0] == '(' && (p[1] == ' ' || p[1] == 0)) { while (*p && *p != ')') p++; if (*p) p++; continue; }
            n = 0;
            while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && n < 63) tok[n++] = *p++;
            tok[n] = 0;
            upcase(tok);
            word(tok, &p);
            if (err) break;
        }
        if (err) {
            if (*err) printf("error: %s", err);
            printf("\n");
            sp = 0;
            rsp = 0;
            compiling = 0;
        } else if (compiling) printf(" compiled\n");
        else printf(" ok\n");
        fflush(stdout);
    }
    return 0;
}
