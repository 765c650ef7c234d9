/* ncc: a compiler for a subset of C that writes static AArch64 Linux executables.
 *
 * One pass: the preprocessor turns files into one token array; the parser emits
 * machine code while it reads (x0 is the accumulator, temporaries are pushed on
 * the stack); an ELF writer lays out code and data and resolves relocations.
 * The program and ncc's own C library (LIBDIR/libc.c) form one translation unit.
 *
 * Calling convention (ours, not the platform's): the caller pushes every argument
 * in a 16-byte slot (argument i at sp + 16*i at the call), calls, and pops them;
 * the result comes back in x0. A struct argument is passed as its address and
 * copied by the callee; a struct result is returned as an address that the caller
 * copies at once. Variadic arguments are simply further slots.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdarg.h>

#ifndef NCC_LIBDIR
#define NCC_LIBDIR "/usr/lib/ncc"
#endif

/* ------------------------------------------------------------ utilities */

static void *xalloc(long n) {
    void *p = calloc(1, n);
    if (!p) {
        fputs("ncc: out of memory\n", stderr);
        exit(1);
    }
    return p;
}

/* grows an array of `elsize`-byte elements so that `need` of them fit */
static void *grow(void *p, int *cap, int need, int elsize) {
    int nc;
    void *q;
    if (need <= *cap) return p;
    nc = *cap ? *cap * 2 : 64;
    while (nc < need) nc = nc * 2;
    q = xalloc((long)nc * elsize);
    if (p) {
        memcpy(q, p, (long)*cap * elsize);
        free(p);
    }
    *cap = nc;
    return q;
}

static char **files;
static int nfiles, capfiles;

/* ------------------------------------------------------------ tokens */

enum { T_EOF, T_IDENT, T_NUM, T_STR, T_PUNCT };

typedef struct Name Name;
typedef struct Token Token;
typedef struct Type Type;
typedef struct Macro Macro;
typedef struct Var Var;
typedef struct Sym Sym;
typedef struct Member Member;

struct Token {
    int kind;
    int punct;
    Name *name;
    long val;
    int nflags; /* number suffixes: 1 unsigned, 2 long, 4 not decimal */
    char *loc;
    int len;
    char *str; /* decoded string literal */
    int slen;
    int file;
    int line;
    int col;
    int bol;   /* first on its line */
    int space; /* preceded by white space */
};

enum {
    P_ARROW = 256, P_INC, P_DEC, P_SHL, P_SHR, P_LE, P_GE, P_EQ, P_NE, P_LAND, P_LOR,
    P_ADDEQ, P_SUBEQ, P_MULEQ, P_DIVEQ, P_MODEQ, P_ANDEQ, P_OREQ, P_XOREQ, P_SHLEQ, P_SHREQ,
    P_ELLIPSIS, P_HASHHASH, P_END
};
static char *punct_names[] = {"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "...", "##"};

static void verror_at(char *file, int line, int col, char *fmt, va_list ap) {
    fprintf(stderr, "%s:%d:%d: error: ", file, line, col);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    exit(1);
}

static void error_at(Token *t, char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    verror_at(files[t->file], t->line, t->col, fmt, ap);
    va_end(ap);
}

static void error_pos(int file, int line, int col, char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    verror_at(files[file], line, col, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------ names */

enum {
    K_NONE, K_VOID, K_CHAR, K_SHORT, K_INT, K_LONG, K_SIGNED, K_UNSIGNED, K_STRUCT, K_UNION,
    K_ENUM, K_TYPEDEF, K_STATIC, K_EXTERN, K_CONST, K_VOLATILE, K_INLINE, K_AUTO, K_REGISTER,
    K_IF, K_ELSE, K_WHILE, K_DO, K_FOR, K_SWITCH, K_CASE, K_DEFAULT, K_BREAK, K_CONTINUE,
    K_RETURN, K_GOTO, K_SIZEOF, NKW
};
static char *kw_names[] = {"", "void", "char", "short", "int", "long", "signed", "unsigned",
    "struct", "union", "enum", "typedef", "static", "extern", "const", "volatile", "inline",
    "auto", "register", "if", "else", "while", "do", "for", "switch", "case", "default", "break",
    "continue", "return", "goto", "sizeof"};

struct Name {
    char *s;
    int len;
    int kw;
    Macro *macro;
    Var *var; /* innermost binding */
    Var *tag; /* innermost struct/union/enum tag */
    Sym *sym; /* global symbol */
    char *unsupported; /* why this name is outside the subset, if it is */
    Name *next;
};

#define NHASH 4096
static Name *names[NHASH];

static Name *intern(char *s, int len) {
    unsigned h = 0;
    int i;
    Name *n;
    for (i = 0; i < len; i++) h = h * 31 + (unsigned char)s[i];
    h = h % NHASH;
    for (n = names[h]; n; n = n->next)
        if (n->len == len && !memcmp(n->s, s, len)) return n;
    n = xalloc(sizeof(Name));
    n->s = xalloc(len + 1);
    memcpy(n->s, s, len);
    n->len = len;
    n->next = names[h];
    names[h] = n;
    return n;
}

static Name *intern_str(char *s) { return intern(s, strlen(s)); }

/* ------------------------------------------------------------ lexer */

typedef struct TokList TokList;
struct TokList {
    Token **v;
    int n;
    int cap;
};

static void tl_push(TokList *l, Token *t) {
    l->v = grow(l->v, &l->cap, l->n + 1, sizeof(Token *));
    l->v[l->n++] = t;
}

static char *read_file(char *path) {
    int fd = open(path, O_RDONLY);
    int cap = 0, n = 0, r;
    char *buf = 0;
    if (fd < 0) return 0;
    for (;;) {
        buf = grow(buf, &cap, n + 4097, 1);
        r = read(fd, buf + n, cap - n - 1);
        if (r < 0) {
            close(fd);
            return 0;
        }
        if (r == 0) break;
        n = n + r;
    }
    close(fd);
    buf[n] = 0;
    return buf;
}

static int is_ident1(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_ident2(int c) { return is_ident1(c) || is_digit(c); }
static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int read_escape(char **pp) {
    char *p = *pp + 1;
    int c = *p, n, i;
    if (c) p++; /* a backslash at the end of the file stays there */
    if (c >= '0' && c <= '7') {
        n = c - '0';
        for (i = 0; i < 2 && *p >= '0' && *p <= '7'; i++) n = n * 8 + (*p++ - '0');
        c = n;
    } else if (c == 'x') {
        n = 0;
        while (hexval(*p) >= 0) n = n * 16 + hexval(*p++);
        c = n;
    } else if (c == 'n') c = 10;
    else if (c == 't') c = 9;
    else if (c == 'r') c = 13;
    else if (c == 'a') c = 7;
    else if (c == 'b') c = 8;
    else if (c == 'f') c = 12;
    else if (c == 'v') c = 11;
    else if (c == 'e') c = 27;
    *pp = p;
    return c & 255;
}

static void tokenize(int file, char *p, TokList *out) {
    char *linestart = p;
    int line = 1, bol = 1, space = 0, i, len;
    Token *t;
    while (*p) {
        if (*p == '\n') {
            p++;
            line++;
            linestart = p;
            bol = 1;
            space = 0;
            continue;
        }
        if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') {
            p++;
            space = 1;
            continue;
        }
        if (p[0] == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n'))) {
            p = p + (p[1] == '\r' ? 3 : 2);
            line++;
            linestart = p;
            space = 1;
            continue;
        }
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n') p++;
            space = 1;
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            int l0 = line, c0 = p - linestart + 1;
            p = p + 2;
            while (*p && !(p[0] == '*' && p[1] == '/')) {
                if (*p == '\n') {
                    line++;
                    linestart = p + 1;
                }
                p++;
            }
            if (!*p) error_pos(file, l0, c0, "unterminated comment");
            p = p + 2;
            space = 1;
            continue;
        }
        t = xalloc(sizeof(Token));
        t->loc = p;
        t->file = file;
        t->line = line;
        t->col = p - linestart + 1;
        t->bol = bol;
        t->space = space;
        bol = 0;
        space = 0;
        if (is_digit(*p) || (*p == '.' && is_digit(p[1]))) {
            unsigned long v = 0;
            if (*p == '.') error_pos(file, line, t->col, "floating point is not supported");
            if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
                p = p + 2;
                if (hexval(*p) < 0) error_pos(file, line, t->col, "invalid hexadecimal constant");
                while (hexval(*p) >= 0) v = v * 16 + hexval(*p++);
                t->nflags = 4;
            } else if (*p == '0') {
                while (*p >= '0' && *p <= '7') v = v * 8 + (*p++ - '0');
                t->nflags = 4;
            } else {
                while (is_digit(*p)) v = v * 10 + (*p++ - '0');
            }
            for (;;) {
                if (*p == 'u' || *p == 'U') t->nflags = t->nflags | 1;
                else if (*p == 'l' || *p == 'L') t->nflags = t->nflags | 2;
                else break;
                p++;
            }
            if (*p == '.' || ((*p == 'e' || *p == 'E') && !(t->nflags & 4)))
                error_pos(file, line, t->col, "floating point is not supported");
            if (is_ident2(*p)) error_pos(file, line, t->col, "invalid number");
            t->kind = T_NUM;
            t->val = v;
        } else if (is_ident1(*p)) {
            while (is_ident2(*p)) p++;
            t->kind = T_IDENT;
            t->name = intern(t->loc, p - t->loc);
        } else if (*p == '"') {
            int cap = 0, n = 0;
            char *buf = 0;
            p++;
            while (*p != '"') {
                if (*p == 0 || *p == '\n') error_pos(file, line, t->col, "unterminated string literal");
                buf = grow(buf, &cap, n + 2, 1);
                if (*p == '\\') buf[n++] = read_escape(&p);
                else buf[n++] = *p++;
            }
            p++;
            buf = grow(buf, &cap, n + 2, 1);
            buf[n] = 0;
            t->kind = T_STR;
            t->str = buf;
            t->slen = n;
        } else if (*p == '\'') {
            int c;
            p++;
            if (*p == '\\') c = read_escape(&p);
            else if (*p == '\'' || *p == '\n' || *p == 0) error_pos(file, line, t->col, "empty character constant");
            else c = (unsigned char)*p++;
            if (*p != '\'') error_pos(file, line, t->col, "unterminated character constant");
            p++;
            t->kind = T_NUM;
            t->val = c;
        } else {
            t->kind = T_PUNCT;
            for (i = 0; i < P_END - P_ARROW; i++) {
                len = strlen(punct_names[i]);
                if (!strncmp(p, punct_names[i], len) && (t->punct == 0 || len == 3)) {
                    t->punct = P_ARROW + i;
                    if (len == 3) break;
                }
            }
            if (t->punct) {
                p = p + strlen(punct_names[t->punct - P_ARROW]);
            } else if (strchr("+-*/%&|^~!<>=?:;,.()[]{}#", *p)) {
                t->punct = *p++;
            } else {
                error_pos(file, line, t->col, "stray character in program");
            }
        }
        t->len = p - t->loc;
        tl_push(out, t);
    }
    t = xalloc(sizeof(Token));
    t->kind = T_EOF;
    t->file = file;
    t->line = line;
    t->col = p - linestart + 1;
    t->bol = 1;
    t->loc = p;
    tl_push(out, t);
}

/* ------------------------------------------------------------ preprocessor */

struct Macro {
    int fnlike;
    int nparams;
    Name **params;
    Token **body;
    int nbody;
    int disabled;
};

/* a source of raw tokens: a file, or a macro expansion being read */
typedef struct Src Src;
struct Src {
    Token **toks;
    int n;
    int pos;
    Macro *m;
    int is_file;
    int conds; /* conditional depth when the file was entered */
};

static Src srcs[256];
static int nsrc;
static Token *pushback;
static int cond_taken[512]; /* per open #if: has a branch been taken */
static int ncond;
static char *incdirs[16];
static int nincdirs;
static TokList ppout;
static Token *eof_tok;
static Name *n_define, *n_undef, *n_include, *n_if, *n_ifdef, *n_ifndef, *n_elif, *n_else,
    *n_endif, *n_error, *n_pragma, *n_defined, *n_line, *n_warning;

static Token *next_raw(void) {
    Src *s;
    Token *t;
    if (pushback) {
        t = pushback;
        pushback = 0;
        return t;
    }
    while (nsrc > 0) {
        s = &srcs[nsrc - 1];
        if (s->pos < s->n) {
            t = s->toks[s->pos];
            if (s->is_file && t->kind == T_EOF) {
                if (ncond != s->conds) error_at(t, "unterminated conditional directive");
                if (nsrc == 1) return t;
                nsrc--;
                continue;
            }
            s->pos++;
            return t;
        }
        if (s->m) s->m->disabled = 0;
        nsrc--;
    }
    return eof_tok;
}

static void push_src(Token **toks, int n, Macro *m, int is_file) {
    Src *s;
    if (nsrc == 256) error_at(toks[0], "macros or includes nested too deeply");
    s = &srcs[nsrc++];
    s->toks = toks;
    s->n = n;
    s->pos = 0;
    s->m = m;
    s->is_file = is_file;
    s->conds = ncond;
}

static int is_punct(Token *t, int p) { return t->kind == T_PUNCT && t->punct == p; }

/* the rest of the directive's line, from the current file */
static void line_tokens(TokList *l) {
    Src *s = &srcs[nsrc - 1];
    while (s->pos < s->n && !s->toks[s->pos]->bol) tl_push(l, s->toks[s->pos++]);
}

static void skip_line(void) {
    Src *s = &srcs[nsrc - 1];
    while (s->pos < s->n && !s->toks[s->pos]->bol) s->pos++;
}

static Token *copy_tok(Token *t) {
    Token *c = xalloc(sizeof(Token));
    memcpy(c, t, sizeof(Token));
    return c;
}

static Token *stringize(Token *where, Token **toks, int n) {
    int cap = 0, len = 0, i, j;
    char *buf = 0;
    Token *t = copy_tok(where);
    for (i = 0; i < n; i++) {
        buf = grow(buf, &cap, len + toks[i]->len + 2, 1);
        if (i > 0 && toks[i]->space) buf[len++] = ' ';
        for (j = 0; j < toks[i]->len; j++) buf[len++] = toks[i]->loc[j];
    }
    buf = grow(buf, &cap, len + 1, 1);
    buf[len] = 0;
    t->kind = T_STR;
    t->str = buf;
    t->slen = len;
    return t;
}

static int expand(Token *t);

/* fully macro-expands n tokens into out (`where` marks the end) */
static void expand_list(Token **toks_in, int n, TokList *out, Token *where) {
    Token **v = xalloc(sizeof(Token *) * (n + 1)), *end = copy_tok(where), *t;
    int base = nsrc, i;
    memset(out, 0, sizeof(TokList));
    for (i = 0; i < n; i++) v[i] = toks_in[i];
    end->kind = T_EOF;
    v[n] = end;
    push_src(v, n + 1, 0, 0);
    for (;;) {
        t = next_raw();
        if (t == end) break;
        if (t->kind == T_EOF) error_at(where, "unterminated macro argument");
        if (expand(t)) continue;
        tl_push(out, t);
    }
    if (nsrc != base + 1) error_at(where, "internal error: macro argument expansion");
    nsrc--;
}

/* if `t` names an enabled macro, push its expansion and return 1 */
static int expand(Token *t) {
    Macro *m;
    Token *u, **body, ***args;
    TokList *expanded;
    int *nargs, *caps, nargc, depth, i, j, k, n, cap;
    if (t->kind != T_IDENT) return 0;
    m = t->name->macro;
    if (!m || m->disabled) return 0;
    if (!m->fnlike) {
        if (m->nbody == 0) return 1;
        push_src(m->body, m->nbody, m, 0);
        m->disabled = 1;
        return 1;
    }
    u = next_raw();
    if (!is_punct(u, '(')) {
        pushback = u;
        return 0;
    }
    nargc = m->nparams > 0 ? m->nparams : 1;
    args = xalloc(sizeof(Token **) * nargc);
    nargs = xalloc(sizeof(int) * nargc);
    caps = xalloc(sizeof(int) * nargc);
    i = 0;
    depth = 0;
    for (;;) {
        u = next_raw();
        if (u->kind == T_EOF) error_at(t, "unterminated argument list invoking macro '%s'", t->name->s);
        if (depth == 0 && is_punct(u, ')')) break;
        if (depth == 0 && is_punct(u, ',')) {
            i++;
            if (i >= nargc) error_at(u, "too many arguments to macro '%s'", t->name->s);
            continue;
        }
        if (is_punct(u, '(')) depth++;
        if (is_punct(u, ')')) depth--;
        args[i] = grow(args[i], &caps[i], nargs[i] + 1, sizeof(Token *));
        args[i][nargs[i]++] = u;
    }
    if (m->nparams > 0 && i != m->nparams - 1) error_at(t, "wrong number of arguments to macro '%s'", t->name->s);
    /* arguments are macro-expanded before substitution (the raw ones serve #) */
    expanded = xalloc(sizeof(TokList) * nargc);
    for (i = 0; i < nargc; i++) expand_list(args[i], nargs[i], &expanded[i], t);
    body = 0;
    n = 0;
    cap = 0;
    for (i = 0; i < m->nbody; i++) {
        u = m->body[i];
        if (is_punct(u, '#') && i + 1 < m->nbody && m->body[i + 1]->kind == T_IDENT) {
            for (k = 0; k < m->nparams; k++)
                if (m->params[k] == m->body[i + 1]->name) break;
            if (k < m->nparams) {
                body = grow(body, &cap, n + 1, sizeof(Token *));
                body[n++] = stringize(u, args[k], nargs[k]);
                i++;
                continue;
            }
        }
        k = m->nparams;
        if (u->kind == T_IDENT)
            for (k = 0; k < m->nparams; k++)
                if (m->params[k] == u->name) break;
        if (k < m->nparams) {
            body = grow(body, &cap, n + expanded[k].n + 1, sizeof(Token *));
            for (j = 0; j < expanded[k].n; j++) body[n++] = expanded[k].v[j];
        } else {
            body = grow(body, &cap, n + 1, sizeof(Token *));
            body[n++] = u;
        }
    }
    if (n == 0) return 1;
    push_src(body, n, m, 0);
    m->disabled = 1;
    return 1;
}

static void define_macro(void) {
    TokList l;
    Token *name;
    Macro *m;
    int i = 1, cap = 0;
    memset(&l, 0, sizeof(l));
    line_tokens(&l);
    if (l.n == 0 || l.v[0]->kind != T_IDENT) error_at(l.n ? l.v[0] : srcs[nsrc - 1].toks[srcs[nsrc - 1].pos - 1], "macro name missing");
    name = l.v[0];
    m = xalloc(sizeof(Macro));
    if (l.n > 1 && is_punct(l.v[1], '(') && !l.v[1]->space) {
        m->fnlike = 1;
        i = 2;
        if (i < l.n && is_punct(l.v[i], ')')) i++;
        else
            for (;;) {
                if (i < l.n && is_punct(l.v[i], P_ELLIPSIS)) error_at(l.v[i], "variadic macros are not supported");
                if (i >= l.n || l.v[i]->kind != T_IDENT) error_at(i < l.n ? l.v[i] : name, "expected parameter name");
                m->params = grow(m->params, &cap, m->nparams + 1, sizeof(Name *));
                m->params[m->nparams++] = l.v[i]->name;
                i++;
                if (i < l.n && is_punct(l.v[i], ',')) {
                    i++;
                    continue;
                }
                if (i < l.n && is_punct(l.v[i], ')')) {
                    i++;
                    break;
                }
                error_at(i < l.n ? l.v[i] : name, "expected ')' in macro parameter list");
            }
    }
    m->body = l.v + i;
    m->nbody = l.n - i;
    for (; i < l.n; i++)
        if (is_punct(l.v[i], P_HASHHASH)) error_at(l.v[i], "token pasting (##) is not supported");
    name->name->macro = m;
}

/* #if expression evaluation, on fully expanded tokens */
static Token **ev_toks;
static int ev_pos, ev_n;

static long ev_cond(void);

static Token *ev_tok(void) { return ev_toks[ev_pos < ev_n ? ev_pos : ev_n - 1]; }

static int ev_depth;

static long ev_primary(void) {
    Token *t = ev_tok();
    long v;
    if (ev_pos >= ev_n - 1) error_at(t, "expected value in #if expression");
    if (++ev_depth > 200) error_at(t, "#if expression nested too deeply");
    ev_pos++;
    if (t->kind == T_NUM) v = t->val;
    else if (t->kind == T_IDENT) v = 0;
    else if (is_punct(t, '(')) {
        v = ev_cond();
        if (!is_punct(ev_tok(), ')')) error_at(ev_tok(), "expected ')' in #if expression");
        ev_pos++;
    } else if (is_punct(t, '-')) v = -ev_primary();
    else if (is_punct(t, '+')) v = ev_primary();
    else if (is_punct(t, '!')) v = !ev_primary();
    else if (is_punct(t, '~')) v = ~ev_primary();
    else error_at(t, "invalid token in #if expression");
    ev_depth--;
    return v;
}

static int binprec(int p) {
    if (p == P_LOR) return 1;
    if (p == P_LAND) return 2;
    if (p == '|') return 3;
    if (p == '^') return 4;
    if (p == '&') return 5;
    if (p == P_EQ || p == P_NE) return 6;
    if (p == '<' || p == '>' || p == P_LE || p == P_GE) return 7;
    if (p == P_SHL || p == P_SHR) return 8;
    if (p == '+' || p == '-') return 9;
    if (p == '*' || p == '/' || p == '%') return 10;
    return 0;
}

static long ev_binary(int minprec) {
    long a = ev_primary(), b;
    Token *t;
    int p, op;
    for (;;) {
        t = ev_tok();
        if (t->kind != T_PUNCT) break;
        op = t->punct;
        p = binprec(op);
        if (p == 0 || p < minprec) break;
        ev_pos++;
        b = ev_binary(p + 1);
        if ((op == '/' || op == '%') && b == 0) error_at(t, "division by zero in #if");
        if (op == P_LOR) a = a || b;
        else if (op == P_LAND) a = a && b;
        else if (op == '|') a = a | b;
        else if (op == '^') a = a ^ b;
        else if (op == '&') a = a & b;
        else if (op == P_EQ) a = a == b;
        else if (op == P_NE) a = a != b;
        else if (op == '<') a = a < b;
        else if (op == '>') a = a > b;
        else if (op == P_LE) a = a <= b;
        else if (op == P_GE) a = a >= b;
        else if (op == P_SHL) a = a << (b & 63);
        else if (op == P_SHR) a = a >> (b & 63);
        else if (op == '+') a = a + b;
        else if (op == '-') a = a - b;
        else if (op == '*') a = a * b;
        else if (op == '/') a = a / b;
        else a = a % b;
    }
    return a;
}

static long ev_cond(void) {
    long c, a, b;
    if (++ev_depth > 200) error_at(ev_tok(), "#if expression nested too deeply");
    c = ev_binary(1);
    ev_depth--;
    if (!is_punct(ev_tok(), '?')) return c;
    ev_depth++;
    ev_pos++;
    a = ev_cond();
    if (!is_punct(ev_tok(), ':')) error_at(ev_tok(), "expected ':' in #if expression");
    ev_pos++;
    b = ev_cond();
    ev_depth--;
    return c ? a : b;
}

static long eval_if(Token *dir) {
    TokList raw, exp;
    Token *t, *end;
    int i;
    long v;
    memset(&raw, 0, sizeof(raw));
    memset(&exp, 0, sizeof(exp));
    line_tokens(&raw);
    for (i = 0; i < raw.n; i++) {
        t = raw.v[i];
        if (t && t->kind == T_IDENT && t->name == n_defined) {
            int paren = i + 1 < raw.n && is_punct(raw.v[i + 1], '(');
            int j = i + 1 + paren;
            Token *c;
            if (j >= raw.n || raw.v[j]->kind != T_IDENT) error_at(t, "macro name expected after 'defined'");
            c = copy_tok(raw.v[j]);
            c->kind = T_NUM;
            c->val = raw.v[j]->name->macro != 0;
            if (paren) {
                if (j + 1 >= raw.n || !is_punct(raw.v[j + 1], ')')) error_at(t, "expected ')' after 'defined'");
                raw.v[j + 1] = c;
                raw.v[i] = 0;
                raw.v[i + 1] = 0;
                raw.v[j] = 0;
            } else {
                raw.v[j] = c;
                raw.v[i] = 0;
            }
        }
    }
    end = copy_tok(dir);
    end->kind = T_EOF;
    tl_push(&raw, end);
    {
        int k = 0;
        for (i = 0; i < raw.n; i++)
            if (raw.v[i]) raw.v[k++] = raw.v[i];
        raw.n = k;
    }
    push_src(raw.v, raw.n, 0, 0);
    for (;;) {
        t = next_raw();
        if (t == end) break;
        if (t->kind == T_EOF) error_at(dir, "bad #if line");
        if (expand(t)) continue;
        tl_push(&exp, t);
    }
    nsrc--;
    tl_push(&exp, end);
    ev_toks = exp.v;
    ev_n = exp.n;
    ev_pos = 0;
    ev_depth = 0;
    v = ev_cond();
    if (ev_pos != ev_n - 1) error_at(ev_tok(), "extra tokens in #if expression");
    return v;
}

/* skips a false group: stops before the #elif/#else/#endif that ends it */
static void skip_group(void) {
    Src *s = &srcs[nsrc - 1];
    int depth = 0;
    Token *t, *d;
    while (s->pos < s->n) {
        t = s->toks[s->pos];
        if (t->kind == T_EOF) return;
        if (is_punct(t, '#') && t->bol && s->pos + 1 < s->n && !s->toks[s->pos + 1]->bol &&
            s->toks[s->pos + 1]->kind == T_IDENT) {
            d = s->toks[s->pos + 1];
            if (d->name == n_if || d->name == n_ifdef || d->name == n_ifndef) depth++;
            else if (d->name == n_endif || d->name == n_elif || d->name == n_else) {
                if (depth == 0) return;
                if (d->name == n_endif) depth--;
            }
        }
        s->pos++;
    }
}

static void include_file(Token *dir, char *path, int angled);

static void directive(Token *hash) {
    Src *s = &srcs[nsrc - 1];
    Token *d;
    long v;
    if (s->pos >= s->n || s->toks[s->pos]->bol) return; /* null directive */
    d = s->toks[s->pos++];
    if (d->kind != T_IDENT) error_at(d, "invalid preprocessing directive");
    if (d->name == n_define) {
        define_macro();
    } else if (d->name == n_undef) {
        Token *t = s->toks[s->pos];
        if (t->bol || t->kind != T_IDENT) error_at(d, "macro name missing");
        t->name->macro = 0;
        skip_line();
    } else if (d->name == n_include) {
        Token *t = s->toks[s->pos];
        if (t->bol) error_at(d, "#include expects \"FILENAME\" or <FILENAME>");
        if (t->kind == T_STR) {
            s->pos++;
            skip_line();
            include_file(t, t->str, 0);
        } else if (is_punct(t, '<')) {
            char buf[512];
            int n = 0, j;
            s->pos++;
            for (;;) {
                t = s->toks[s->pos];
                if (t->bol || t->kind == T_EOF) error_at(d, "expected '>'");
                s->pos++;
                if (is_punct(t, '>')) break;
                if (t->space && n > 0 && n < 500) buf[n++] = ' ';
                for (j = 0; j < t->len && n < 500; j++) buf[n++] = t->loc[j];
            }
            buf[n] = 0;
            skip_line();
            include_file(d, strdup(buf), 1);
        } else {
            error_at(t, "#include expects \"FILENAME\" or <FILENAME>");
        }
    } else if (d->name == n_if || d->name == n_ifdef || d->name == n_ifndef) {
        if (ncond == 512) error_at(d, "conditionals nested too deeply");
        if (d->name == n_if) {
            v = eval_if(d);
        } else {
            Token *t = s->toks[s->pos];
            if (t->bol || t->kind != T_IDENT) error_at(d, "macro name missing");
            v = t->name->macro != 0;
            if (d->name == n_ifndef) v = !v;
            skip_line();
        }
        cond_taken[ncond++] = v != 0;
        if (!v) skip_group();
    } else if (d->name == n_elif) {
        if (ncond <= s->conds) error_at(d, "#elif without #if");
        if (cond_taken[ncond - 1]) {
            skip_line();
            skip_group();
        } else {
            v = eval_if(d);
            if (v) cond_taken[ncond - 1] = 1;
            else skip_group();
        }
    } else if (d->name == n_else) {
        if (ncond <= s->conds) error_at(d, "#else without #if");
        skip_line();
        if (cond_taken[ncond - 1]) skip_group();
        cond_taken[ncond - 1] = 1;
    } else if (d->name == n_endif) {
        if (ncond <= s->conds) error_at(d, "#endif without #if");
        ncond--;
        skip_line();
    } else if (d->name == n_error) {
        error_at(d, "#error");
    } else if (d->name == n_pragma || d->name == n_line || d->name == n_warning) {
        skip_line();
    } else {
        error_at(d, "invalid preprocessing directive #%s", d->name->s);
    }
}

static char *join_path(char *dir, int dlen, char *name) {
    char *p = xalloc(dlen + strlen(name) + 2);
    memcpy(p, dir, dlen);
    p[dlen] = '/';
    strcpy(p + dlen + 1, name);
    return p;
}

static int add_file(char *path) {
    files = grow(files, &capfiles, nfiles + 1, sizeof(char *));
    files[nfiles] = path;
    return nfiles++;
}

static void push_file(char *path, char *text) {
    TokList *l = xalloc(sizeof(TokList));
    tokenize(add_file(path), text, l);
    push_src(l->v, l->n, 0, 1);
}

static void include_file(Token *dir, char *name, int angled) {
    char *text = 0, *path = name, *cur = files[dir->file], *slash;
    int i;
    if (nsrc > 200) error_at(dir, "#include nested too deeply");
    if (name[0] == '/') {
        text = read_file(name);
    } else {
        if (!angled) {
            slash = strrchr(cur, '/');
            path = slash ? join_path(cur, slash - cur, name) : name;
            text = read_file(path);
        }
        for (i = 0; !text && i < nincdirs; i++) {
            path = join_path(incdirs[i], strlen(incdirs[i]), name);
            text = read_file(path);
        }
    }
    if (!text) error_at(dir, "cannot open include file '%s'", name);
    push_file(path, text);
}

/* runs the preprocessor over `path`, appending the result to ppout */
static void preprocess(char *path) {
    Token *t, *last;
    char *text = read_file(path);
    if (!text) {
        fprintf(stderr, "ncc: error: cannot open '%s'\n", path);
        exit(1);
    }
    nsrc = 0;
    ncond = 0;
    push_file(path, text);
    for (;;) {
        t = next_raw();
        if (t->kind == T_EOF) break;
        if (is_punct(t, '#') && t->bol && nsrc > 0 && srcs[nsrc - 1].is_file) {
            directive(t);
            continue;
        }
        if (expand(t)) continue;
        last = ppout.n ? ppout.v[ppout.n - 1] : 0;
        if (t->kind == T_STR && last && last->kind == T_STR) {
            /* adjacent string literals are one */
            Token *c = copy_tok(last);
            c->str = xalloc(last->slen + t->slen + 1);
            memcpy(c->str, last->str, last->slen);
            memcpy(c->str + last->slen, t->str, t->slen);
            c->slen = last->slen + t->slen;
            ppout.v[ppout.n - 1] = c;
            continue;
        }
        tl_push(&ppout, t);
    }
    eof_tok = t;
}

/* ------------------------------------------------------------ types */

enum { TY_VOID, TY_INT, TY_PTR, TY_ARRAY, TY_STRUCT, TY_FUNC };

struct Member {
    Name *name;
    Type *ty;
    int off;
    Member *next;
};

struct Type {
    int kind;
    int size;
    int align;
    int uns;
    Type *base; /* pointer target, array element */
    int len;    /* array length, -1 if unknown */
    Member *mem;
    int complete;
    Type *ret;
    Type **params;
    Name **pnames;
    int np;
    int variadic;
    int oldstyle; /* () with no prototype */
};

static Type *ty_void, *ty_char, *ty_schar, *ty_short, *ty_ushort, *ty_int, *ty_uint, *ty_long, *ty_ulong;

static Type *new_type(int kind, int size, int align) {
    Type *t = xalloc(sizeof(Type));
    t->kind = kind;
    t->size = size;
    t->align = align;
    t->complete = 1;
    return t;
}

static Type *int_type(int size, int uns) {
    Type *t = new_type(TY_INT, size, size);
    t->uns = uns;
    return t;
}

static Type *ptr_to(Type *base) {
    Type *t = new_type(TY_PTR, 8, 8);
    t->base = base;
    t->uns = 1;
    return t;
}

static Type *array_of(Type *base, int len) {
    Type *t = new_type(TY_ARRAY, len < 0 ? 0 : base->size * len, base->align);
    t->base = base;
    t->len = len;
    return t;
}

static int is_int(Type *t) { return t->kind == TY_INT; }
static int is_ptr(Type *t) { return t->kind == TY_PTR; }
static int is_scalar(Type *t) { return t->kind == TY_INT || t->kind == TY_PTR; }

static Type *decay(Type *t) {
    if (t->kind == TY_ARRAY) return ptr_to(t->base);
    if (t->kind == TY_FUNC) return ptr_to(t);
    return t;
}

static Type *promote(Type *t) { return t->size < 4 ? ty_int : t; }

static Type *common_type(Type *a, Type *b) {
    if (is_ptr(a)) return a;
    if (is_ptr(b)) return b;
    a = promote(a);
    b = promote(b);
    if (a->size == 8 || b->size == 8) {
        if ((a->size == 8 && a->uns) || (b->size == 8 && b->uns)) return ty_ulong;
        return ty_long;
    }
    if (a->uns || b->uns) return ty_uint;
    return ty_int;
}

/* the 64-bit register form of value v of type t */
static long norm(long v, Type *t) {
    if (t->kind != TY_INT || t->size == 8) return v;
    if (t->size == 4) return t->uns ? (long)(unsigned int)v : (long)(int)v;
    if (t->size == 2) return t->uns ? (long)(unsigned short)v : (long)(short)v;
    return t->uns ? (long)(unsigned char)v : (long)(signed char)v;
}

/* ------------------------------------------------------------ code buffer */

static unsigned *code;
static int ncode, capcode;
static char *data;
static int ndata, capdata;
static int lastload = -1;  /* index of the load that ended the last lvalue */
static int lastfunc = -1;  /* index of the address load of a named function */
static Sym *lastfunc_sym;

struct Sym {
    Name *name;
    int is_func;
    int defined;
    long off; /* code byte offset (functions) or data offset */
    Token *tok;
};

enum { R_BL, R_ADR, R_DATA };
typedef struct Reloc Reloc;
struct Reloc {
    int kind;
    long at;
    Sym *sym;
};
static Reloc *relocs;
static int nrelocs, caprelocs;

static int emit(unsigned w) {
    code = grow(code, &capcode, ncode + 1, 4);
    code[ncode] = w;
    return ncode++;
}

static void add_reloc(int kind, long at, Sym *sym) {
    relocs = grow(relocs, &caprelocs, nrelocs + 1, sizeof(Reloc));
    relocs[nrelocs].kind = kind;
    relocs[nrelocs].at = at;
    relocs[nrelocs].sym = sym;
    nrelocs++;
}

/* forgets the code emitted since `pos` (and its relocations) */
static void rewind_code(int pos) {
    while (nrelocs > 0 && relocs[nrelocs - 1].kind != R_DATA && relocs[nrelocs - 1].at >= pos) nrelocs--;
    ncode = pos;
    lastload = -1;
    lastfunc = -1;
}

static int alloc_data(int size, int align) {
    int off;
    if (align < 1) align = 1;
    off = (ndata + align - 1) / align * align;
    data = grow(data, &capdata, off + size + 1, 1);
    ndata = off + size;
    return off;
}

/* instruction encodings (64-bit forms unless noted) */
static void e_movz(int r, int imm, int hw) { emit(0xD2800000 | hw << 21 | (imm & 0xffff) << 5 | r); }
static void e_movk(int r, int imm, int hw) { emit(0xF2800000 | hw << 21 | (imm & 0xffff) << 5 | r); }

static void e_imm(int r, long v) {
    int i;
    if (v < 0 && v >= -65536) {
        emit(0x92800000 | ((~v) & 0xffff) << 5 | r); /* movn */
        return;
    }
    e_movz(r, v & 0xffff, 0);
    for (i = 1; i < 4; i++)
        if ((v >> (16 * i)) & 0xffff) e_movk(r, (v >> (16 * i)) & 0xffff, i);
}

static void e_rrr(unsigned op, int d, int n, int m) { emit(op | m << 16 | n << 5 | d); }
#define OP_ADD 0x8B000000
#define OP_SUB 0xCB000000
#define OP_MUL 0x9B007C00
#define OP_SDIV 0x9AC00C00
#define OP_UDIV 0x9AC00800
#define OP_AND 0x8A000000
#define OP_ORR 0xAA000000
#define OP_EOR 0xCA000000
#define OP_LSL 0x9AC02000
#define OP_LSR 0x9AC02400
#define OP_ASR 0x9AC02800

static void e_mov(int d, int m) { e_rrr(OP_ORR, d, 31, m); }
static void e_push(int r) { emit(0xF81F0FE0 | r); }
static void e_pop(int r) { emit(0xF84107E0 | r); }
static void e_cmp(int n, int m) { emit(0xEB00001F | m << 16 | n << 5); }
static void e_cset(int d, int cond) { emit(0x9A9F07E0 | (cond ^ 1) << 12 | d); }
static void e_addi(int d, int n, int imm) { emit(0x91000000 | imm << 10 | n << 5 | d); }
static void e_subi(int d, int n, int imm) { emit(0xD1000000 | imm << 10 | n << 5 | d); }

/* d = n + v, where n may be sp or x29 */
static void e_addr(int d, int n, long v) {
    if (v >= 0 && v < 4096) e_addi(d, n, v);
    else if (v < 0 && v > -4096) e_subi(d, n, -v);
    else {
        e_imm(16, v);
        emit(0x8B206000 | 16 << 16 | n << 5 | d); /* add (extended register) */
    }
}

enum { C_EQ, C_NE, C_HS, C_LO, C_MI, C_PL, C_VS, C_VC, C_HI, C_LS, C_GE, C_LT, C_GT, C_LE };

/* converts register r from type `from` to type `to` */
static void e_cast(int r, Type *from, Type *to) {
    if (to->kind != TY_INT || to->size == 8) return;
    if (from->kind == TY_INT && from->size < to->size && (from->uns || !to->uns)) return;
    if (from->kind == TY_INT && from->size == to->size && from->uns == to->uns) return;
    if (to->size == 4) emit((to->uns ? 0xD3407C00 : 0x93407C00) | r << 5 | r);
    else if (to->size == 2) emit((to->uns ? 0xD3403C00 : 0x93403C00) | r << 5 | r);
    else emit((to->uns ? 0xD3401C00 : 0x93401C00) | r << 5 | r);
}

/* d = [a] as type t */
static void e_load(Type *t, int d, int a) {
    unsigned op;
    if (t->kind != TY_INT && t->kind != TY_PTR) return;
    if (t->size == 1) op = t->uns ? 0x39400000 : 0x39800000;
    else if (t->size == 2) op = t->uns ? 0x79400000 : 0x79800000;
    else if (t->size == 4) op = t->uns ? 0xB9400000 : 0xB9800000;
    else op = 0xF9400000;
    lastload = emit(op | a << 5 | d);
}

static void e_store(Type *t, int s, int a) {
    unsigned op;
    if (t->size == 1) op = 0x39000000;
    else if (t->size == 2) op = 0x79000000;
    else if (t->size == 4) op = 0xB9000000;
    else op = 0xF9000000;
    emit(op | a << 5 | s);
}

/* copies n bytes from [x0] to [x1]; leaves x0 = x1 */
static void e_copy(int n) {
    int i = 0;
    for (; i + 8 <= n; i = i + 8) {
        emit(0xF9400000 | (i / 8) << 10 | 0 << 5 | 2);
        emit(0xF9000000 | (i / 8) << 10 | 1 << 5 | 2);
    }
    for (; i < n; i++) {
        emit(0x39400000 | i << 10 | 0 << 5 | 2);
        emit(0x39000000 | i << 10 | 1 << 5 | 2);
    }
    e_mov(0, 1);
}

static void e_zero(int n) { /* zeroes n bytes at [x1] */
    int i = 0;
    for (; i + 8 <= n; i = i + 8) emit(0xF9000000 | (i / 8) << 10 | 1 << 5 | 31);
    for (; i < n; i++) emit(0x39000000 | i << 10 | 1 << 5 | 31);
}

static int e_jump(void) { return emit(0x14000000); }
static int e_cbz(int r) { return emit(0xB4000000 | r); }
static int e_cbnz(int r) { return emit(0xB5000000 | r); }

static void patch(int at, int target) {
    int d = target - at;
    unsigned w = code[at];
    if ((w & 0x7C000000) == 0x14000000) code[at] = (w & 0xFC000000) | (d & 0x3ffffff);
    else code[at] = (w & 0xFF00001F) | (d & 0x7ffff) << 5;
}

static void e_addr_sym(Sym *s) {
    add_reloc(R_ADR, ncode, s);
    e_movz(0, 0, 0);
    e_movk(0, 0, 1);
}

/* ------------------------------------------------------------ scopes */

enum { V_LOCAL, V_GLOBAL, V_ENUM, V_TYPEDEF, V_TAG };

struct Var {
    Name *name;
    Type *ty;
    int kind;
    long off; /* locals: from x29 */
    Sym *sym;
    long val;
    int depth;
    Var *shadow;
};

static Var **binds;
static int nbinds, capbinds;
static int depth;

static Var *bind(Name *name, int kind, Type *ty) {
    Var *v = xalloc(sizeof(Var));
    v->name = name;
    v->kind = kind;
    v->ty = ty;
    v->depth = depth;
    if (kind == V_TAG) {
        v->shadow = name->tag;
        name->tag = v;
    } else {
        v->shadow = name->var;
        name->var = v;
    }
    binds = grow(binds, &capbinds, nbinds + 1, sizeof(Var *));
    binds[nbinds++] = v;
    return v;
}

static void leave_scope(int mark) {
    Var *v;
    while (nbinds > mark) {
        v = binds[--nbinds];
        if (v->kind == V_TAG) v->name->tag = v->shadow;
        else v->name->var = v->shadow;
    }
    depth--;
}

static Sym *global_sym(Name *name, int is_func) {
    if (!name->sym) {
        name->sym = xalloc(sizeof(Sym));
        name->sym->name = name;
        name->sym->is_func = is_func;
    }
    return name->sym;
}

/* ------------------------------------------------------------ parser state */

static Token **toks;
static int pos;
static Token *tok;
static int is_const; /* the last expression is a constant ... */
static long cval;    /* ... with this value */
static int nest;
static long frame;   /* bytes of locals in the current function */
static Type *cur_fn;
static int cur_np;

static void advance(void) {
    if (tok->kind != T_EOF) pos++;
    tok = toks[pos];
}

static int at(int p) { return tok->kind == T_PUNCT && tok->punct == p; }
static int at_kw(int k) { return tok->kind == T_IDENT && tok->name->kw == k; }

static int consume(int p) {
    if (!at(p)) return 0;
    advance();
    return 1;
}

static void expect(int p) {
    if (!at(p)) {
        if (p < 256) error_at(tok, "expected '%c'", p);
        error_at(tok, "expected '%s'", punct_names[p - P_ARROW]);
    }
    advance();
}

static Name *expect_ident(void) {
    Name *n;
    if (tok->kind != T_IDENT || tok->name->kw) error_at(tok, "expected identifier");
    n = tok->name;
    advance();
    return n;
}

static void enter_nest(void) {
    if (++nest > 400) error_at(tok, "nesting too deep");
}

static int is_typename(Token *t) {
    if (t->kind != T_IDENT) return 0;
    if (t->name->kw) return t->name->kw <= K_REGISTER;
    return t->name->var && t->name->var->kind == V_TYPEDEF;
}

static long local_slot(int size, int align) {
    if (align < 8) align = 8;
    frame = (frame + size + align - 1) / align * align;
    return -frame;
}

/* ------------------------------------------------------------ declarations */

static Type *declspec(int *storage);
static Type *declarator(Type *ty, Name **name, Token **nametok);
static Type *assign(void);
static Type *expr(void);
static Type *cast_expr(void);
static void statement(void);
static long const_expr(void);

static Type *abstract_type(void) {
    Type *t = declspec(0);
    return declarator(t, 0, 0);
}

static void struct_body(Type *ty, int is_union) {
    Member *last = 0, *m;
    Type *base, *t;
    Name *name;
    Token *start;
    int off = 0, size = 0, align = 1;
    enter_nest();
    expect('{');
    while (!consume('}')) {
        start = tok;
        base = declspec(0);
        for (;;) {
            name = 0;
            t = declarator(base, &name, 0);
            if (!name) error_at(start, "member name expected");
            if (at(':')) error_at(tok, "bit-fields are not supported");
            if (!t->complete || t->kind == TY_FUNC || t->kind == TY_VOID) error_at(start, "member '%s' has incomplete type", name->s);
            m = xalloc(sizeof(Member));
            m->name = name;
            m->ty = t;
            if (is_union) {
                m->off = 0;
                if (t->size > size) size = t->size;
            } else {
                off = (off + t->align - 1) / t->align * t->align;
                m->off = off;
                off = off + t->size;
            }
            if (t->align > align) align = t->align;
            if (last) last->next = m;
            else ty->mem = m;
            last = m;
            if (!consume(',')) break;
        }
        expect(';');
    }
    nest--;
    if (!is_union) size = off;
    ty->align = align;
    ty->size = (size + align - 1) / align * align;
    ty->complete = 1;
}

static Type *struct_decl(int is_union) {
    Name *tag = 0;
    Var *v;
    Type *ty;
    if (tok->kind == T_IDENT && !tok->name->kw) tag = expect_ident();
    if (tag && !at('{')) {
        if (tag->tag) return tag->tag->ty;
        ty = new_type(TY_STRUCT, 0, 1);
        ty->complete = 0;
        bind(tag, V_TAG, ty);
        return ty;
    }
    if (!at('{')) error_at(tok, "expected '{' or a tag name");
    v = tag ? tag->tag : 0;
    if (v && v->depth == depth && v->ty->kind == TY_STRUCT && !v->ty->complete) ty = v->ty;
    else {
        ty = new_type(TY_STRUCT, 0, 1);
        ty->complete = 0;
        if (tag) bind(tag, V_TAG, ty);
    }
    struct_body(ty, is_union);
    return ty;
}

static Type *enum_decl(void) {
    Name *tag = 0, *n;
    long val = 0;
    Var *v;
    if (tok->kind == T_IDENT && !tok->name->kw) tag = expect_ident();
    if (tag && !at('{')) return ty_int;
    expect('{');
    while (!consume('}')) {
        n = expect_ident();
        if (consume('=')) val = const_expr();
        v = bind(n, V_ENUM, ty_int);
        v->val = val++;
        if (!consume(',')) {
            expect('}');
            break;
        }
    }
    if (tag) bind(tag, V_TAG, ty_int);
    return ty_int;
}

enum { S_NONE, S_TYPEDEF, S_STATIC, S_EXTERN };

static Type *declspec(int *storage) {
    int nlong = 0, nshort = 0, nint = 0, nchar = 0, nvoid = 0, uns = 0, sig = 0;
    Type *ty = 0;
    Token *start = tok;
    int k;
    if (storage) *storage = S_NONE;
    for (;;) {
        if (tok->kind != T_IDENT) break;
        k = tok->name->kw;
        if (k == K_TYPEDEF || k == K_STATIC || k == K_EXTERN) {
            if (!storage) error_at(tok, "storage class not allowed here");
            *storage = k == K_TYPEDEF ? S_TYPEDEF : k == K_STATIC ? S_STATIC : S_EXTERN;
        } else if (k == K_CONST || k == K_VOLATILE || k == K_INLINE || k == K_AUTO || k == K_REGISTER) {
        } else if (k == K_VOID) nvoid++;
        else if (k == K_CHAR) nchar++;
        else if (k == K_SHORT) nshort++;
        else if (k == K_INT) nint++;
        else if (k == K_LONG) nlong++;
        else if (k == K_UNSIGNED) uns++;
        else if (k == K_SIGNED) sig++;
        else if (k == K_STRUCT || k == K_UNION || k == K_ENUM) {
            if (ty) error_at(tok, "two or more data types in declaration");
            advance();
            if (k == K_ENUM) ty = enum_decl();
            else ty = struct_decl(k == K_UNION);
            continue;
        } else if (k == 0 && tok->name->var && tok->name->var->kind == V_TYPEDEF && !ty &&
                   !(nvoid | nchar | nshort | nint | nlong | uns | sig)) {
            ty = tok->name->var->ty;
        } else break;
        advance();
    }
    if (ty) {
        if (nvoid | nchar | nshort | nint | nlong | uns | sig) error_at(start, "two or more data types in declaration");
        return ty;
    }
    if (nvoid) {
        if (nchar | nshort | nint | nlong | uns | sig) error_at(start, "invalid type");
        return ty_void;
    }
    if ((uns && sig) || nchar > 1 || nshort > 1 || nint > 1 || nlong > 2 || (nchar && (nshort | nint | nlong)) ||
        (nshort && nlong))
        error_at(start, "invalid type");
    if (nchar) return uns ? ty_char : sig ? ty_schar : ty_char;
    if (nshort) return uns ? ty_ushort : ty_short;
    if (nlong) return uns ? ty_ulong : ty_long;
    if (nint || uns || sig) return uns ? ty_uint : ty_int;
    error_at(start, "expected a type");
    return 0;
}

static Type *func_params(Type *ret) {
    Type *fn = new_type(TY_FUNC, 1, 1), *t;
    Name *name;
    int cap = 0, cap2 = 0;
    fn->ret = ret;
    if (at(')')) {
        fn->oldstyle = 1;
        advance();
        return fn;
    }
    if (at_kw(K_VOID) && toks[pos + 1]->kind == T_PUNCT && toks[pos + 1]->punct == ')') {
        advance();
        advance();
        return fn;
    }
    for (;;) {
        if (consume(P_ELLIPSIS)) {
            fn->variadic = 1;
            expect(')');
            break;
        }
        if (!is_typename(tok)) error_at(tok, "expected parameter type");
        t = declspec(0);
        name = 0;
        t = declarator(t, &name, 0);
        if (t->kind == TY_ARRAY) t = ptr_to(t->base);
        if (t->kind == TY_FUNC) t = ptr_to(t);
        if (t->kind == TY_VOID) error_at(tok, "parameter has void type");
        fn->params = grow(fn->params, &cap, fn->np + 1, sizeof(Type *));
        fn->pnames = grow(fn->pnames, &cap2, fn->np + 1, sizeof(Name *));
        fn->params[fn->np] = t;
        fn->pnames[fn->np] = name;
        fn->np++;
        if (consume(')')) break;
        expect(',');
    }
    return fn;
}

static Type *type_suffix(Type *ty) {
    long len;
    enter_nest();
    nest--;
    if (consume('(')) {
        if (ty->kind == TY_FUNC || ty->kind == TY_ARRAY) error_at(tok, "invalid function return type");
        return func_params(ty);
    }
    if (consume('[')) {
        len = -1;
        if (!at(']')) {
            len = const_expr();
            if (len < 0 || len > 0x10000000) error_at(tok, "invalid array size");
        }
        expect(']');
        enter_nest();
        ty = type_suffix(ty);
        nest--;
        if (!ty->complete || ty->kind == TY_FUNC || ty->kind == TY_VOID) error_at(tok, "array of incomplete type");
        return array_of(ty, len);
    }
    return ty;
}

static Type *declarator(Type *ty, Name **name, Token **nametok) {
    int start, end, d;
    Type *t;
    enter_nest();
    while (consume('*')) {
        ty = ptr_to(ty);
        while (at_kw(K_CONST) || at_kw(K_VOLATILE)) advance();
    }
    if (at('(') && (toks[pos + 1]->kind == T_PUNCT ? (toks[pos + 1]->punct == '*' || toks[pos + 1]->punct == '(')
                                                  : (toks[pos + 1]->kind == T_IDENT && !is_typename(toks[pos + 1])))) {
        advance();
        start = pos;
        d = 1;
        while (d > 0) {
            if (tok->kind == T_EOF) error_at(tok, "expected ')'");
            if (at('(')) d++;
            if (at(')')) d--;
            advance();
        }
        ty = type_suffix(ty);
        end = pos;
        pos = start;
        tok = toks[pos];
        t = declarator(ty, name, nametok);
        expect(')');
        pos = end;
        tok = toks[pos];
        nest--;
        return t;
    }
    if (tok->kind == T_IDENT && !tok->name->kw) {
        if (!name) error_at(tok, "unexpected identifier");
        if (nametok) *nametok = tok;
        *name = tok->name;
        advance();
    }
    t = type_suffix(ty);
    nest--;
    return t;
}

/* ------------------------------------------------------------ expressions */

static Name *n_syscall, *n_va_area;

static void to_addr(Type *ty, Token *t) {
    if (ty->kind == TY_STRUCT || ty->kind == TY_ARRAY || ty->kind == TY_FUNC) return;
    if (lastload < 0 || lastload != ncode - 1) error_at(t, "lvalue required");
    ncode--;
    lastload = -1;
}

static void scale(int r, Type *base, Token *t) {
    if (!base->complete) error_at(t, "arithmetic on a pointer to an incomplete type");
    if (base->size == 1) return;
    e_imm(2, base->size);
    e_rrr(OP_MUL, r, r, 2);
}

static int is_cmp(int op) { return op == '<' || op == '>' || op == P_LE || op == P_GE || op == P_EQ || op == P_NE; }

static int cond_code(int op, int uns) {
    if (op == P_EQ) return C_EQ;
    if (op == P_NE) return C_NE;
    if (op == '<') return uns ? C_LO : C_LT;
    if (op == '>') return uns ? C_HI : C_GT;
    if (op == P_LE) return uns ? C_LS : C_LE;
    return uns ? C_HS : C_GE;
}

/* x0 = x0 op x1; returns the result type */
static Type *gen_binop(int op, Type *lt, Type *rt, Token *t) {
    Type *ct;
    if (op == '+' || op == '-') {
        if (is_ptr(lt) && is_int(rt)) {
            scale(1, lt->base, t);
            e_rrr(op == '+' ? OP_ADD : OP_SUB, 0, 0, 1);
            return lt;
        }
        if (is_int(lt) && is_ptr(rt) && op == '+') {
            scale(0, rt->base, t);
            e_rrr(OP_ADD, 0, 0, 1);
            return rt;
        }
        if (is_ptr(lt) && is_ptr(rt) && op == '-') {
            e_rrr(OP_SUB, 0, 0, 1);
            if (lt->base->size > 1) {
                e_imm(1, lt->base->size);
                e_rrr(OP_SDIV, 0, 0, 1);
            }
            return ty_long;
        }
    }
    if (is_cmp(op)) {
        if (!is_scalar(lt) || !is_scalar(rt)) error_at(t, "invalid operands to comparison");
        ct = common_type(lt, rt);
        e_cast(0, lt, ct);
        e_cast(1, rt, ct);
        e_cmp(0, 1);
        e_cset(0, cond_code(op, ct->uns));
        return ty_int;
    }
    if (!is_int(lt) || !is_int(rt)) error_at(t, "invalid operands to binary expression");
    if (op == P_SHL || op == P_SHR) {
        ct = promote(lt);
        e_cast(0, lt, ct);
        if (op == P_SHL) e_rrr(OP_LSL, 0, 0, 1);
        else e_rrr(ct->uns ? OP_LSR : OP_ASR, 0, 0, 1);
        e_cast(0, ty_long, ct);
        return ct;
    }
    ct = common_type(lt, rt);
    e_cast(0, lt, ct);
    e_cast(1, rt, ct);
    if (op == '+') e_rrr(OP_ADD, 0, 0, 1);
    else if (op == '-') e_rrr(OP_SUB, 0, 0, 1);
    else if (op == '*') e_rrr(OP_MUL, 0, 0, 1);
    else if (op == '&') e_rrr(OP_AND, 0, 0, 1);
    else if (op == '|') e_rrr(OP_ORR, 0, 0, 1);
    else if (op == '^') e_rrr(OP_EOR, 0, 0, 1);
    else if (op == '/') e_rrr(ct->uns ? OP_UDIV : OP_SDIV, 0, 0, 1);
    else if (op == '%') {
        e_rrr(ct->uns ? OP_UDIV : OP_SDIV, 2, 0, 1);
        emit(0x9B008000 | 1 << 16 | 0 << 10 | 2 << 5 | 0); /* msub x0, x2, x1, x0 */
    } else error_at(t, "invalid operator");
    e_cast(0, ty_long, ct);
    return ct;
}

/* the same operation on constants (both integer types) */
static long fold(int op, long a, Type *lt, long b, Type *rt) {
    Type *ct = common_type(lt, rt);
    long r;
    unsigned long ua, ub;
    if (op == P_SHL || op == P_SHR) {
        ct = promote(lt);
        a = norm(a, ct);
        if (op == P_SHL) r = a << (b & 63);
        else if (ct->uns) r = (unsigned long)a >> (b & 63);
        else r = a >> (b & 63);
        return norm(r, ct);
    }
    a = norm(a, ct);
    b = norm(b, ct);
    ua = a;
    ub = b;
    if (is_cmp(op)) {
        if (op == P_EQ) return a == b;
        if (op == P_NE) return a != b;
        if (op == '<') return ct->uns ? ua < ub : a < b;
        if (op == '>') return ct->uns ? ua > ub : a > b;
        if (op == P_LE) return ct->uns ? ua <= ub : a <= b;
        return ct->uns ? ua >= ub : a >= b;
    }
    if (op == '+') r = a + b;
    else if (op == '-') r = a - b;
    else if (op == '*') r = a * b;
    else if (op == '&') r = a & b;
    else if (op == '|') r = a | b;
    else if (op == '^') r = a ^ b;
    else if (op == '/') r = ct->uns ? (long)(ua / ub) : a / b;
    else r = ct->uns ? (long)(ua % ub) : a % b;
    return norm(r, ct);
}

static Type *num_type(Token *t) {
    unsigned long v = t->val;
    int f = t->nflags;
    if (f & 2) return (f & 1) || v > 0x7fffffffffffffff ? ty_ulong : ty_long;
    if (f & 1) return v <= 0xffffffff ? ty_uint : ty_ulong;
    if (v <= 0x7fffffff) return ty_int;
    if ((f & 4) && v <= 0xffffffff) return ty_uint;
    if (v <= 0x7fffffffffffffff) return ty_long;
    return ty_ulong;
}

static Sym *string_sym(Token *t) {
    Sym *s = xalloc(sizeof(Sym));
    s->defined = 1;
    s->off = alloc_data(t->slen + 1, 1);
    memcpy(data + s->off, t->str, t->slen);
    data[s->off + t->slen] = 0;
    return s;
}

static Type *builtin_syscall(Token *t) {
    int n = 0, i;
    Type *a;
    expect('(');
    for (;;) {
        a = decay(assign());
        if (!is_scalar(a)) error_at(t, "syscall arguments must be scalars");
        e_push(0);
        n++;
        if (!consume(',')) break;
    }
    expect(')');
    if (n > 7) error_at(t, "too many syscall arguments");
    emit(0xF9400000 | (2 * (n - 1)) << 10 | 31 << 5 | 8);
    for (i = 1; i < n; i++) emit(0xF9400000 | (2 * (n - 1 - i)) << 10 | 31 << 5 | (i - 1));
    emit(0xD4000001);
    e_addr(31, 31, 16 * n);
    is_const = 0;
    lastload = -1;
    return ty_long;
}

static Type *primary(void) {
    Token *t = tok;
    Type *ty;
    Name *n;
    Var *v;
    if (consume('(')) {
        ty = expr();
        expect(')');
        return ty;
    }
    if (t->kind == T_NUM) {
        ty = num_type(t);
        advance();
        cval = norm(t->val, ty);
        e_imm(0, cval);
        is_const = 1;
        return ty;
    }
    if (t->kind == T_STR) {
        advance();
        e_addr_sym(string_sym(t));
        is_const = 0;
        return array_of(ty_char, t->slen + 1);
    }
    if (t->kind == T_IDENT && !t->name->kw) {
        n = t->name;
        advance();
        if (n == n_syscall) return builtin_syscall(t);
        if (n == n_va_area) {
            expect('(');
            expect(')');
            e_addr(0, 29, 16 + 16 * cur_np);
            is_const = 0;
            return ptr_to(ty_char);
        }
        v = n->var;
        if (!v && n->unsupported) error_at(t, "%s", n->unsupported);
        if (!v) error_at(t, "use of undeclared identifier '%s'", n->s);
        if (v->kind == V_ENUM) {
            e_imm(0, v->val);
            is_const = 1;
            cval = v->val;
            return ty_int;
        }
        if (v->kind == V_TYPEDEF) error_at(t, "unexpected type name '%s'", n->s);
        is_const = 0;
        if (v->kind == V_LOCAL) {
            e_addr(0, 29, v->off);
        } else {
            if (!v->sym->tok) v->sym->tok = t;
            e_addr_sym(v->sym);
            if (v->ty->kind == TY_FUNC) {
                lastfunc = ncode - 2;
                lastfunc_sym = v->sym;
            }
        }
        e_load(v->ty, 0, 0);
        return v->ty;
    }
    error_at(t, "expected expression");
    return 0;
}

static Type *call(Type *ty, Token *t) {
    Type *fn = ty, *a;
    Token *at_tok;
    Sym *s = 0;
    int direct = 0, n = 0, i, j, off;
    if (fn->kind == TY_PTR && fn->base->kind == TY_FUNC) fn = fn->base;
    if (fn->kind != TY_FUNC) error_at(t, "called object is not a function");
    if (lastfunc >= 0 && lastfunc == ncode - 2) {
        s = lastfunc_sym;
        rewind_code(ncode - 2);
        direct = 1;
    } else {
        e_push(0);
    }
    if (!at(')'))
        for (;;) {
            at_tok = tok;
            a = decay(assign());
            if (a->kind == TY_VOID) error_at(at_tok, "void value used as an argument");
            if (n < fn->np) {
                if ((a->kind == TY_STRUCT) != (fn->params[n]->kind == TY_STRUCT))
                    error_at(at_tok, "incompatible type for argument %d", n + 1);
                e_cast(0, a, fn->params[n]);
            } else if (!fn->variadic && !fn->oldstyle) {
                error_at(at_tok, "too many arguments to function call");
            }
            e_push(0);
            n++;
            if (!consume(',')) break;
        }
    expect(')');
    if (n < fn->np) error_at(t, "too few arguments to function call");
    for (i = 0; i < n / 2; i++) {
        j = n - 1 - i;
        emit(0xF9400000 | (2 * i) << 10 | 31 << 5 | 16);
        emit(0xF9400000 | (2 * j) << 10 | 31 << 5 | 17);
        emit(0xF9000000 | (2 * i) << 10 | 31 << 5 | 17);
        emit(0xF9000000 | (2 * j) << 10 | 31 << 5 | 16);
    }
    if (direct) {
        add_reloc(R_BL, ncode, s);
        emit(0x94000000);
    } else {
        emit(0xF9400000 | (2 * n) << 10 | 31 << 5 | 16);
        emit(0xD63F0200);
    }
    e_addr(31, 31, 16 * n + (direct ? 0 : 16));
    is_const = 0;
    lastload = -1;
    if (fn->ret->kind == TY_STRUCT) {
        off = local_slot(fn->ret->size, fn->ret->align);
        e_addr(1, 29, off);
        e_copy(fn->ret->size);
    }
    return fn->ret;
}

static void incdec(Type *ty, Token *t, int post, int delta) {
    long step = 1;
    to_addr(ty, t);
    if (!is_scalar(ty)) error_at(t, "invalid operand to increment or decrement");
    if (is_ptr(ty)) {
        if (!ty->base->complete) error_at(t, "arithmetic on a pointer to an incomplete type");
        step = ty->base->size;
    }
    e_mov(1, 0);
    e_load(ty, 0, 1);
    e_imm(2, step * delta);
    e_rrr(OP_ADD, 2, 0, 2);
    e_cast(2, ty_long, ty);
    e_store(ty, 2, 1);
    if (!post) e_mov(0, 2);
    is_const = 0;
    lastload = -1;
}

static Member *find_member(Type *ty, Name *n) {
    Member *m;
    for (m = ty->mem; m; m = m->next)
        if (m->name == n) return m;
    return 0;
}

static Type *postfix(void) {
    Type *ty = primary(), *t2;
    Token *t;
    Member *m;
    Name *n;
    for (;;) {
        t = tok;
        if (consume('[')) {
            ty = decay(ty);
            e_push(0);
            t2 = decay(expr());
            expect(']');
            e_mov(1, 0);
            e_pop(0);
            if (is_int(ty) && is_ptr(t2)) {
                e_mov(2, 0);
                e_mov(0, 1);
                e_mov(1, 2);
                ty = t2;
                t2 = ty_long;
            }
            if (!is_ptr(ty) || !is_int(t2)) error_at(t, "subscripted value is not an array or pointer");
            scale(1, ty->base, t);
            e_rrr(OP_ADD, 0, 0, 1);
            ty = ty->base;
            e_load(ty, 0, 0);
            is_const = 0;
            continue;
        }
        if (consume('(')) {
            ty = call(ty, t);
            continue;
        }
        if (at('.') || at(P_ARROW)) {
            if (at(P_ARROW)) {
                ty = decay(ty);
                if (!is_ptr(ty)) error_at(t, "member reference type is not a pointer");
                ty = ty->base;
            }
            advance();
            n = expect_ident();
            if (ty->kind != TY_STRUCT || !ty->complete) error_at(t, "member reference base type is not a structure or union");
            m = find_member(ty, n);
            if (!m) error_at(t, "no member named '%s'", n->s);
            if (m->off) e_addr(0, 0, m->off);
            ty = m->ty;
            e_load(ty, 0, 0);
            is_const = 0;
            continue;
        }
        if (at(P_INC) || at(P_DEC)) {
            incdec(ty, t, 1, at(P_INC) ? 1 : -1);
            advance();
            continue;
        }
        return ty;
    }
}

static Type *unary(void) {
    Token *t = tok;
    Type *ty;
    int start = ncode;
    long fr;
    enter_nest();
    if (consume('+') || consume('-') || consume('~')) {
        ty = decay(cast_expr());
        if (!is_int(ty)) error_at(t, "invalid argument type to unary expression");
        ty = promote(ty);
        if (is_punct(t, '-')) {
            if (is_const) cval = norm(-cval, ty);
            else e_rrr(OP_SUB, 0, 31, 0);
        } else if (is_punct(t, '~')) {
            if (is_const) cval = norm(~cval, ty);
            else emit(0xAA2003E0);
        }
        if (is_const) {
            rewind_code(start);
            e_imm(0, cval);
        } else {
            e_cast(0, ty_long, ty);
        }
        lastload = -1;
        nest--;
        return ty;
    }
    if (consume('!')) {
        ty = decay(cast_expr());
        if (!is_scalar(ty)) error_at(t, "invalid argument type to '!'");
        if (is_const) {
            cval = !cval;
            rewind_code(start);
            e_imm(0, cval);
        } else {
            emit(0xF100001F);
            e_cset(0, C_EQ);
        }
        lastload = -1;
        nest--;
        return ty_int;
    }
    if (consume('&')) {
        ty = cast_expr();
        to_addr(ty, t);
        is_const = 0;
        nest--;
        return ptr_to(ty);
    }
    if (consume('*')) {
        ty = decay(cast_expr());
        if (!is_ptr(ty)) error_at(t, "indirection requires a pointer operand");
        ty = ty->base;
        if (ty->kind != TY_FUNC) e_load(ty, 0, 0);
        is_const = 0;
        nest--;
        return ty;
    }
    if (consume(P_INC) || consume(P_DEC)) {
        ty = unary();
        incdec(ty, t, 0, is_punct(t, P_INC) ? 1 : -1);
        nest--;
        return ty;
    }
    if (at_kw(K_SIZEOF)) {
        advance();
        if (at('(') && is_typename(toks[pos + 1])) {
            advance();
            ty = abstract_type();
            expect(')');
        } else {
            fr = frame;
            ty = unary();
            frame = fr;
        }
        rewind_code(start);
        if (!ty->complete || ty->kind == TY_FUNC || (ty->kind == TY_ARRAY && ty->len < 0))
            error_at(t, "invalid application of 'sizeof' to an incomplete type");
        cval = ty->size;
        e_imm(0, cval);
        is_const = 1;
        nest--;
        return ty_ulong;
    }
    ty = postfix();
    nest--;
    return ty;
}

static Type *cast_expr(void) {
    Token *t = tok;
    Type *ty, *from;
    int start = ncode;
    if (at('(') && is_typename(toks[pos + 1])) {
        advance();
        ty = abstract_type();
        expect(')');
        if (at('{')) error_at(tok, "compound literals are not supported");
        from = decay(cast_expr());
        lastload = -1;
        if (ty->kind == TY_VOID) {
            is_const = 0;
            return ty;
        }
        if (!is_scalar(ty) || !is_scalar(from)) error_at(t, "invalid cast");
        if (is_const) {
            cval = norm(cval, ty);
            rewind_code(start);
            e_imm(0, cval);
        } else {
            e_cast(0, from, ty);
        }
        return ty;
    }
    return unary();
}

static Type *binary(int minprec) {
    int start = ncode, op, p, lc, rc, j, j2;
    long lv, rv, v;
    Type *lt, *rt, *res;
    Token *t;
    enter_nest();
    lt = cast_expr();
    for (;;) {
        t = tok;
        if (t->kind != T_PUNCT) break;
        op = t->punct;
        p = binprec(op);
        if (p == 0 || p < minprec) break;
        advance();
        lt = decay(lt);
        lc = is_const;
        lv = cval;
        if (op == P_LAND || op == P_LOR) {
            if (!is_scalar(lt)) error_at(t, "invalid operand to logical operator");
            j = op == P_LAND ? e_cbz(0) : e_cbnz(0);
            rt = decay(binary(p + 1));
            if (!is_scalar(rt)) error_at(t, "invalid operand to logical operator");
            rc = is_const;
            rv = cval;
            emit(0xF100001F);
            e_cset(0, C_NE);
            j2 = e_jump();
            patch(j, ncode);
            e_imm(0, op == P_LOR);
            patch(j2, ncode);
            if (lc && rc) {
                v = op == P_LAND ? (lv && rv) : (lv || rv);
                rewind_code(start);
                e_imm(0, v);
                cval = v;
            } else is_const = 0;
            lastload = -1;
            lt = ty_int;
            continue;
        }
        e_push(0);
        rt = decay(binary(p + 1));
        rc = is_const;
        rv = cval;
        e_mov(1, 0);
        e_pop(0);
        res = gen_binop(op, lt, rt, t);
        if (lc && rc && is_int(lt) && is_int(rt) &&
            !((op == '/' || op == '%') && norm(rv, common_type(lt, rt)) == 0)) {
            v = fold(op, lv, lt, rv, rt);
            rewind_code(start);
            e_imm(0, v);
            cval = v;
            is_const = 1;
        } else is_const = 0;
        lastload = -1;
        lt = res;
    }
    nest--;
    return lt;
}

static Type *conditional(void) {
    int start = ncode, cc, ac, j, j2;
    long cv, av;
    Type *c, *a, *b, *ty;
    Token *t;
    c = binary(1);
    if (!at('?')) return c;
    t = tok;
    advance();
    c = decay(c);
    if (!is_scalar(c)) error_at(t, "used type where a scalar is required");
    cc = is_const;
    cv = cval;
    j = e_cbz(0);
    a = decay(expr());
    ac = is_const;
    av = cval;
    expect(':');
    j2 = e_jump();
    patch(j, ncode);
    b = decay(conditional());
    patch(j2, ncode);
    ty = a;
    if (is_int(a) && is_int(b)) ty = common_type(a, b);
    else if (is_ptr(b) && !is_ptr(a)) ty = b;
    if (a->kind == TY_VOID || b->kind == TY_VOID) ty = ty_void;
    if (cc && ac && is_const) {
        cval = cv ? av : cval;
        rewind_code(start);
        e_imm(0, cval);
    } else is_const = 0;
    lastload = -1;
    return ty;
}

static int assign_op(int op) {
    if (op == P_ADDEQ) return '+';
    if (op == P_SUBEQ) return '-';
    if (op == P_MULEQ) return '*';
    if (op == P_DIVEQ) return '/';
    if (op == P_MODEQ) return '%';
    if (op == P_ANDEQ) return '&';
    if (op == P_OREQ) return '|';
    if (op == P_XOREQ) return '^';
    if (op == P_SHLEQ) return P_SHL;
    if (op == P_SHREQ) return P_SHR;
    return 0;
}

static Type *assign(void) {
    Token *t;
    Type *lt, *rt, *res;
    int op;
    enter_nest();
    lt = conditional();
    t = tok;
    if (t->kind != T_PUNCT || (t->punct != '=' && !assign_op(t->punct))) {
        nest--;
        return lt;
    }
    op = t->punct;
    if (lt->kind == TY_ARRAY || lt->kind == TY_FUNC || lt->kind == TY_VOID) error_at(t, "expression is not assignable");
    to_addr(lt, t);
    advance();
    e_push(0);
    if (op == '=') {
        rt = decay(assign());
        if (lt->kind == TY_STRUCT) {
            if (rt != lt) error_at(t, "assigning from an incompatible type");
            e_pop(1);
            e_copy(lt->size);
        } else {
            if (!is_scalar(rt)) error_at(t, "assigning from an incompatible type");
            e_cast(0, rt, lt);
            e_pop(1);
            e_store(lt, 0, 1);
        }
    } else {
        if (!is_scalar(lt)) error_at(t, "invalid operands to compound assignment");
        e_load(lt, 0, 0);
        e_push(0);
        rt = decay(assign());
        e_mov(1, 0);
        e_pop(0);
        res = gen_binop(assign_op(op), lt, rt, t);
        e_cast(0, res, lt);
        e_pop(1);
        e_store(lt, 0, 1);
    }
    is_const = 0;
    lastload = -1;
    nest--;
    return lt;
}

static Type *expr(void) {
    Type *t = assign();
    while (consume(',')) {
        t = assign();
        is_const = 0;
    }
    return t;
}

static long const_expr(void) {
    int start = ncode;
    Token *t = tok;
    conditional();
    if (!is_const) error_at(t, "expression is not an integer constant");
    rewind_code(start);
    return cval;
}

/* ------------------------------------------------------------ initialisers */

/* number of elements an initialiser gives an array of unknown length */
static int init_count(Type *ty) {
    int i, d = 0, n = 0, items = 0;
    if (tok->kind == T_STR && ty->base->size == 1) return tok->slen + 1;
    if (!at('{')) error_at(tok, "array initializer must be an initializer list");
    for (i = pos; toks[i]->kind != T_EOF; i++) {
        Token *t = toks[i];
        if (is_punct(t, '{') || is_punct(t, '(') || is_punct(t, '[')) {
            d++;
            if (d == 2) items = 1;
            continue;
        }
        if (is_punct(t, '}') || is_punct(t, ')') || is_punct(t, ']')) {
            d--;
            if (d == 0) return n + items;
            continue;
        }
        if (d == 1 && is_punct(t, ',')) {
            if (items) n++;
            items = 0;
        } else if (d == 1) items = 1;
    }
    error_at(tok, "unterminated initializer");
    return 0;
}

static Type *complete_array(Type *ty) {
    if (ty->kind == TY_ARRAY && ty->len < 0 && at('=')) {
        advance();
        ty = array_of(ty->base, init_count(ty));
        pos--;
        tok = toks[pos];
    }
    return ty;
}

static void local_agg(Type *ty, long off);

static void local_scalar(Type *ty, long off) {
    int brace = consume('{');
    Token *t = tok;
    Type *rt = decay(assign());
    if (!is_scalar(rt)) error_at(t, "initializing from an incompatible type");
    e_cast(0, rt, ty);
    e_addr(1, 29, off);
    e_store(ty, 0, 1);
    if (brace) {
        consume(',');
        expect('}');
    }
}

static void no_designator(void) {
    if (at('[') || at('.')) error_at(tok, "designated initializers are not supported");
}

static void local_elem(Type *ty, long off) {
    Token *t = tok;
    Type *rt;
    no_designator();
    if (ty->kind == TY_ARRAY || ty->kind == TY_STRUCT) {
        if (at('{') || (ty->kind == TY_ARRAY && tok->kind == T_STR)) {
            local_agg(ty, off);
            return;
        }
        if (ty->kind == TY_ARRAY) error_at(t, "array initializer must be an initializer list");
        rt = assign();
        if (rt != ty) error_at(t, "initializing from an incompatible type");
        e_addr(1, 29, off);
        e_copy(ty->size);
        return;
    }
    local_scalar(ty, off);
}

/* the memory is already zero */
static void local_agg(Type *ty, long off) {
    int i;
    Member *m;
    if (ty->kind == TY_ARRAY && tok->kind == T_STR && ty->base->size == 1) {
        for (i = 0; i < tok->slen && i < ty->len; i++) {
            e_imm(0, (unsigned char)tok->str[i]);
            e_addr(1, 29, off + i);
            e_store(ty_char, 0, 1);
        }
        advance();
        return;
    }
    expect('{');
    if (ty->kind == TY_ARRAY) {
        for (i = 0; !at('}'); i++) {
            if (i >= ty->len) error_at(tok, "excess elements in array initializer");
            local_elem(ty->base, off + (long)i * ty->base->size);
            if (!consume(',')) break;
        }
    } else {
        for (m = ty->mem; m && !at('}'); m = m->next) {
            local_elem(m->ty, off + m->off);
            if (!consume(',')) break;
            if (ty->mem->off == 0 && ty->mem->next && ty->mem->next->off == 0) break; /* union */
        }
    }
    expect('}');
}

static void local_init(Type *ty, long off) {
    int i;
    if ((ty->kind == TY_ARRAY || ty->kind == TY_STRUCT) && (at('{') || (ty->kind == TY_ARRAY && tok->kind == T_STR))) {
        e_addr(1, 29, off);
        if (ty->size <= 128) {
            e_zero(ty->size);
        } else {
            e_imm(2, (ty->size + 7) / 8);
            i = emit(0xF800843F); /* str xzr, [x1], #8 */
            emit(0xF1000442);     /* subs x2, x2, #1 */
            emit(0x54000001 | ((i - ncode) & 0x7ffff) << 5); /* b.ne */
        }
        local_agg(ty, off);
        return;
    }
    local_elem(ty, off);
}

static void put(char *b, long off, long v, int n) {
    int i;
    for (i = 0; i < n; i++) b[off + i] = (v >> (8 * i)) & 255;
}

static void global_init(Type *ty, long off) {
    int i, brace;
    Member *m;
    Var *v;
    Token *t = tok;
    no_designator();
    if (ty->kind == TY_ARRAY) {
        if (tok->kind == T_STR && ty->base->size == 1) {
            for (i = 0; i < tok->slen && i < ty->len; i++) data[off + i] = tok->str[i];
            advance();
            return;
        }
        expect('{');
        for (i = 0; !at('}'); i++) {
            if (i >= ty->len) error_at(tok, "excess elements in array initializer");
            global_init(ty->base, off + (long)i * ty->base->size);
            if (!consume(',')) break;
        }
        expect('}');
        return;
    }
    if (ty->kind == TY_STRUCT) {
        expect('{');
        for (m = ty->mem; m && !at('}'); m = m->next) {
            global_init(m->ty, off + m->off);
            if (!consume(',')) break;
            if (ty->mem->off == 0 && ty->mem->next && ty->mem->next->off == 0) break;
        }
        expect('}');
        return;
    }
    brace = consume('{');
    if (tok->kind == T_STR) {
        if (!is_ptr(ty)) error_at(tok, "initializing an integer with a string");
        add_reloc(R_DATA, off, string_sym(tok));
        advance();
    } else if ((at('&') && toks[pos + 1]->kind == T_IDENT) || (tok->kind == T_IDENT && tok->name->var &&
               tok->name->var->kind == V_GLOBAL && (tok->name->var->ty->kind == TY_ARRAY ||
               tok->name->var->ty->kind == TY_FUNC))) {
        consume('&');
        v = tok->name->var;
        if (!v || v->kind != V_GLOBAL) error_at(tok, "initializer element is not a compile-time constant");
        if (!is_ptr(ty)) error_at(t, "initializing an integer with an address");
        add_reloc(R_DATA, off, v->sym);
        advance();
    } else {
        put(data, off, const_expr(), ty->size);
    }
    if (brace) {
        consume(',');
        expect('}');
    }
}

/* ------------------------------------------------------------ statements */

static int *jumps;
static int njumps, capjumps;
static int loops, switches;
static long *case_vals;
static int *case_pos;
static int ncases, capcases, capcases2;
static int default_pos = -1;
static Type *switch_ty;

typedef struct Label Label;
struct Label {
    Name *name;
    int pos;
    Token *tok;
};
static Label *labels, *gotos;
static int nlabels, caplabels, ngotos, capgotos;

static void add_jump(int kind, Token *t) {
    if (kind == 0 && loops + switches == 0) error_at(t, "'break' statement not in loop or switch statement");
    if (kind == 1 && loops == 0) error_at(t, "'continue' statement not in loop statement");
    jumps = grow(jumps, &capjumps, njumps + 1, sizeof(int));
    jumps[njumps++] = e_jump() * 2 + kind;
}

/* cont < 0: continue jumps stay pending (they belong to an outer loop) */
static void patch_jumps(int mark, int brk, int cont) {
    int i, k = mark, idx;
    for (i = mark; i < njumps; i++) {
        idx = jumps[i] >> 1;
        if ((jumps[i] & 1) == 0) patch(idx, brk);
        else if (cont >= 0) patch(idx, cont);
        else jumps[k++] = jumps[i];
    }
    njumps = k;
}

static void jump_to(int target) { patch(e_jump(), target); }

static void condition(void) {
    Token *t = tok;
    Type *ty = decay(expr());
    if (!is_scalar(ty)) error_at(t, "statement requires expression of scalar type");
}

static void epilogue(void) {
    emit(0x910003BF);
    emit(0xA8C17BFD);
    emit(0xD65F03C0);
}

static void declaration(void);

static void compound(void) {
    int mark = nbinds;
    depth++;
    while (!consume('}')) {
        if (tok->kind == T_EOF) error_at(tok, "expected '}'");
        if (is_typename(tok) && !is_punct(toks[pos + 1], ':')) declaration();
        else statement();
    }
    leave_scope(mark);
}

static void statement(void) {
    Token *t = tok;
    Type *ty;
    int j, j2, top, mark, cont, i, old_ncases, old_default, k;
    long slot;
    Type *old_ty;
    enter_nest();
    if (consume('{')) {
        compound();
    } else if (consume(';')) {
    } else if (at_kw(K_IF)) {
        advance();
        expect('(');
        condition();
        expect(')');
        j = e_cbz(0);
        statement();
        if (at_kw(K_ELSE)) {
            advance();
            j2 = e_jump();
            patch(j, ncode);
            statement();
            patch(j2, ncode);
        } else patch(j, ncode);
    } else if (at_kw(K_WHILE)) {
        advance();
        top = ncode;
        expect('(');
        condition();
        expect(')');
        j = e_cbz(0);
        mark = njumps;
        loops++;
        statement();
        loops--;
        jump_to(top);
        patch(j, ncode);
        patch_jumps(mark, ncode, top);
    } else if (at_kw(K_DO)) {
        advance();
        top = ncode;
        mark = njumps;
        loops++;
        statement();
        loops--;
        cont = ncode;
        if (!at_kw(K_WHILE)) error_at(tok, "expected 'while' in do/while loop");
        advance();
        expect('(');
        condition();
        expect(')');
        expect(';');
        patch(e_cbnz(0), top);
        patch_jumps(mark, ncode, cont);
    } else if (at_kw(K_FOR)) {
        advance();
        expect('(');
        depth++;
        k = nbinds;
        if (is_typename(tok)) declaration();
        else {
            if (!at(';')) expr();
            expect(';');
        }
        top = ncode;
        j = -1;
        if (!at(';')) {
            condition();
            j = e_cbz(0);
        }
        expect(';');
        j2 = e_jump();
        cont = ncode;
        if (!at(')')) expr();
        expect(')');
        jump_to(top);
        patch(j2, ncode);
        mark = njumps;
        loops++;
        statement();
        loops--;
        jump_to(cont);
        if (j >= 0) patch(j, ncode);
        patch_jumps(mark, ncode, cont);
        leave_scope(k);
    } else if (at_kw(K_SWITCH)) {
        advance();
        expect('(');
        ty = decay(expr());
        expect(')');
        if (!is_int(ty)) error_at(t, "statement requires expression of integer type");
        ty = promote(ty);
        slot = local_slot(8, 8);
        e_addr(1, 29, slot);
        e_store(ty_long, 0, 1);
        j = e_jump();
        old_ncases = ncases;
        old_default = default_pos;
        old_ty = switch_ty;
        default_pos = -1;
        switch_ty = ty;
        mark = njumps;
        switches++;
        statement();
        switches--;
        j2 = e_jump();
        patch(j, ncode);
        e_addr(1, 29, slot);
        e_load(ty_long, 0, 1);
        for (i = old_ncases; i < ncases; i++) {
            e_imm(1, case_vals[i]);
            e_cmp(0, 1);
            patch(emit(0x54000000 | C_EQ), case_pos[i]);
        }
        if (default_pos >= 0) jump_to(default_pos);
        patch(j2, ncode);
        patch_jumps(mark, ncode, -1);
        ncases = old_ncases;
        default_pos = old_default;
        switch_ty = old_ty;
    } else if (at_kw(K_CASE)) {
        advance();
        if (!switches) error_at(t, "'case' statement not in switch statement");
        case_vals = grow(case_vals, &capcases, ncases + 1, sizeof(long));
        case_pos = grow(case_pos, &capcases2, ncases + 1, sizeof(int));
        case_vals[ncases] = norm(const_expr(), switch_ty);
        case_pos[ncases++] = ncode;
        expect(':');
        statement();
    } else if (at_kw(K_DEFAULT)) {
        advance();
        if (!switches) error_at(t, "'default' statement not in switch statement");
        expect(':');
        default_pos = ncode;
        statement();
    } else if (at_kw(K_BREAK) || at_kw(K_CONTINUE)) {
        advance();
        add_jump(t->name->kw == K_BREAK ? 0 : 1, t);
        expect(';');
    } else if (at_kw(K_RETURN)) {
        advance();
        if (!at(';')) {
            ty = decay(expr());
            if (cur_fn->ret->kind == TY_STRUCT) {
                if (ty != cur_fn->ret) error_at(t, "returning an incompatible type");
            } else if (cur_fn->ret->kind != TY_VOID) {
                if (!is_scalar(ty)) error_at(t, "returning an incompatible type");
                e_cast(0, ty, cur_fn->ret);
            }
        }
        expect(';');
        epilogue();
    } else if (at_kw(K_GOTO)) {
        advance();
        gotos = grow(gotos, &capgotos, ngotos + 1, sizeof(Label));
        gotos[ngotos].tok = tok;
        gotos[ngotos].name = expect_ident();
        gotos[ngotos++].pos = e_jump();
        expect(';');
    } else if (t->kind == T_IDENT && !t->name->kw && is_punct(toks[pos + 1], ':')) {
        for (i = 0; i < nlabels; i++)
            if (labels[i].name == t->name) error_at(t, "redefinition of label '%s'", t->name->s);
        labels = grow(labels, &caplabels, nlabels + 1, sizeof(Label));
        labels[nlabels].name = t->name;
        labels[nlabels++].pos = ncode;
        advance();
        advance();
        statement();
    } else {
        expr();
        expect(';');
    }
    nest--;
}

/* ------------------------------------------------------------ top level */

static void declaration(void) {
    int storage;
    Type *base = declspec(&storage), *ty;
    Name *name;
    Token *nt;
    Var *v;
    if (consume(';')) return;
    for (;;) {
        name = 0;
        nt = tok;
        ty = declarator(base, &name, &nt);
        if (!name) error_at(nt, "expected identifier");
        if (storage == S_TYPEDEF) {
            bind(name, V_TYPEDEF, ty);
        } else if (ty->kind == TY_FUNC || storage == S_EXTERN) {
            v = bind(name, V_GLOBAL, ty);
            v->sym = global_sym(name, ty->kind == TY_FUNC);
        } else {
            ty = complete_array(ty);
            if (ty->kind == TY_VOID || !ty->complete || (ty->kind == TY_ARRAY && ty->len < 0))
                error_at(nt, "variable '%s' has incomplete type", name->s);
            if (storage == S_STATIC) {
                v = bind(name, V_GLOBAL, ty);
                v->sym = xalloc(sizeof(Sym));
                v->sym->defined = 1;
                v->sym->off = alloc_data(ty->size, ty->align);
                if (consume('=')) global_init(ty, v->sym->off);
            } else {
                v = bind(name, V_LOCAL, ty);
                v->off = local_slot(ty->size, ty->align);
                if (consume('=')) local_init(ty, v->off);
            }
        }
        if (consume(',')) continue;
        expect(';');
        return;
    }
}

static void function_def(Type *fn, Name *name, Token *nt) {
    Sym *s = global_sym(name, 1);
    Var *p;
    int mark, fr, i, j;
    if (s->defined) error_at(nt, "redefinition of '%s'", name->s);
    s->defined = 1;
    s->is_func = 1;
    s->off = ncode * 4;
    cur_fn = fn;
    cur_np = fn->np;
    frame = 0;
    nlabels = 0;
    ngotos = 0;
    depth++;
    mark = nbinds;
    emit(0xA9BF7BFD); /* stp x29, x30, [sp, #-16]! */
    emit(0x910003FD); /* mov x29, sp */
    fr = ncode;
    e_movz(16, 0, 0);
    e_movk(16, 0, 1);
    emit(0xCB3063FF); /* sub sp, sp, x16 */
    for (i = 0; i < fn->np; i++) {
        if (!fn->pnames[i]) error_at(nt, "parameter name omitted");
        p = bind(fn->pnames[i], V_LOCAL, fn->params[i]);
        if (fn->params[i]->kind == TY_STRUCT) {
            p->off = local_slot(fn->params[i]->size, fn->params[i]->align);
            emit(0xF9400000 | (2 + 2 * i) << 10 | 29 << 5 | 0);
            e_addr(1, 29, p->off);
            e_copy(fn->params[i]->size);
        } else {
            p->off = 16 + 16 * i;
        }
    }
    expect('{');
    compound();
    e_imm(0, 0);
    epilogue();
    for (i = 0; i < ngotos; i++) {
        for (j = 0; j < nlabels; j++)
            if (labels[j].name == gotos[i].name) break;
        if (j == nlabels) error_at(gotos[i].tok, "use of undeclared label '%s'", gotos[i].name->s);
        patch(gotos[i].pos, labels[j].pos);
    }
    frame = (frame + 15) / 16 * 16;
    if (frame > 0x7fffffff) error_at(nt, "stack frame too large");
    code[fr] = code[fr] | (frame & 0xffff) << 5;
    code[fr + 1] = code[fr + 1] | ((frame >> 16) & 0xffff) << 5;
    leave_scope(mark);
}

static void global_var(Type *ty, Name *name, Token *nt, int storage) {
    Var *v = name->var;
    Sym *s;
    if (!v || v->kind != V_GLOBAL || v->depth != 0) v = bind(name, V_GLOBAL, ty);
    s = global_sym(name, 0);
    v->sym = s;
    if (storage == S_EXTERN && !at('=')) {
        if (!s->defined) v->ty = ty;
        return;
    }
    ty = complete_array(ty);
    if (s->defined) {
        if (at('=')) error_at(nt, "redefinition of '%s'", name->s);
        return;
    }
    if (ty->kind == TY_VOID || !ty->complete || (ty->kind == TY_ARRAY && ty->len < 0))
        error_at(nt, "variable '%s' has incomplete type", name->s);
    v->ty = ty;
    s->defined = 1;
    s->off = alloc_data(ty->size, ty->align);
    if (consume('=')) global_init(ty, s->off);
}

static void toplevel(void) {
    int storage;
    Type *base, *ty;
    Name *name;
    Token *nt;
    Var *v;
    while (tok->kind != T_EOF) {
        if (consume(';')) continue;
        if (tok->kind == T_IDENT && tok->name->unsupported) error_at(tok, "%s", tok->name->unsupported);
        if (!is_typename(tok)) error_at(tok, "expected a declaration");
        base = declspec(&storage);
        if (consume(';')) continue;
        for (;;) {
            name = 0;
            nt = tok;
            ty = declarator(base, &name, &nt);
            if (!name) error_at(nt, "expected identifier");
            if (storage == S_TYPEDEF) {
                bind(name, V_TYPEDEF, ty);
            } else if (ty->kind == TY_FUNC) {
                v = name->var;
                if (!v || v->kind != V_GLOBAL) v = bind(name, V_GLOBAL, ty);
                v->sym = global_sym(name, 1);
                if (at('{')) {
                    v->ty = ty;
                    function_def(ty, name, nt);
                    break;
                }
                if (!v->sym->defined) v->ty = ty;
            } else {
                global_var(ty, name, nt, storage);
            }
            if (consume(',')) continue;
            expect(';');
            break;
        }
    }
}

/* ------------------------------------------------------------ ELF output */

#define BASE 0x400000

static void write_elf(char *out) {
    long code_off = 128, data_off = (128 + (long)ncode * 4 + 15) / 16 * 16, total = data_off + ndata, a;
    char *b = xalloc(total + 1);
    Reloc *r;
    int i, fd;
    for (i = 0; i < nrelocs; i++) {
        r = &relocs[i];
        if (!r->sym->defined) error_at(r->sym->tok ? r->sym->tok : eof_tok, "undefined reference to '%s'", r->sym->name->s);
        a = BASE + (r->sym->is_func ? code_off : data_off) + r->sym->off;
        if (r->kind == R_BL) {
            if (!r->sym->is_func) error_at(r->sym->tok ? r->sym->tok : eof_tok, "'%s' is not a function", r->sym->name->s);
            code[r->at] = 0x94000000 | ((r->sym->off / 4 - r->at) & 0x3ffffff);
        } else if (r->kind == R_ADR) {
            code[r->at] = code[r->at] | (a & 0xffff) << 5;
            code[r->at + 1] = code[r->at + 1] | ((a >> 16) & 0xffff) << 5;
        } else {
            put(data, r->at, a, 8);
        }
    }
    b[0] = 0x7f;
    b[1] = 'E';
    b[2] = 'L';
    b[3] = 'F';
    b[4] = 2;
    b[5] = 1;
    b[6] = 1;
    put(b, 16, 2, 2);
    put(b, 18, 183, 2);
    put(b, 20, 1, 4);
    put(b, 24, BASE + code_off, 8);
    put(b, 32, 64, 8);
    put(b, 52, 64, 2);
    put(b, 54, 56, 2);
    put(b, 56, 1, 2);
    put(b, 58, 64, 2);
    put(b, 64, 1, 4);
    put(b, 68, 7, 4);
    put(b, 80, BASE, 8);
    put(b, 88, BASE, 8);
    put(b, 96, total, 8);
    put(b, 104, total, 8);
    put(b, 112, 0x10000, 8);
    for (i = 0; i < ncode; i++) put(b, code_off + 4 * (long)i, code[i], 4);
    if (ndata) memcpy(b + data_off, data, ndata);
    fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0755);
    if (fd < 0 || write(fd, b, total) != total) {
        fprintf(stderr, "ncc: error: cannot write '%s'\n", out);
        exit(1);
    }
    close(fd);
}

/* ------------------------------------------------------------ driver */

static void init(void) {
    int i;
    for (i = 1; i < NKW; i++) intern_str(kw_names[i])->kw = i;
    n_define = intern_str("define");
    n_undef = intern_str("undef");
    n_include = intern_str("include");
    n_if = intern_str("if");
    n_ifdef = intern_str("ifdef");
    n_ifndef = intern_str("ifndef");
    n_elif = intern_str("elif");
    n_else = intern_str("else");
    n_endif = intern_str("endif");
    n_error = intern_str("error");
    n_pragma = intern_str("pragma");
    n_line = intern_str("line");
    n_warning = intern_str("warning");
    n_defined = intern_str("defined");
    n_syscall = intern_str("__syscall");
    n_va_area = intern_str("__va_area");
    intern_str("float")->unsupported = "floating point types are not supported";
    intern_str("double")->unsupported = "floating point types are not supported";
    intern_str("_Bool")->unsupported = "_Bool is not supported";
    intern_str("_Complex")->unsupported = "_Complex is not supported";
    ty_void = new_type(TY_VOID, 1, 1);
    ty_char = int_type(1, 1);
    ty_schar = int_type(1, 0);
    ty_short = int_type(2, 0);
    ty_ushort = int_type(2, 1);
    ty_int = int_type(4, 0);
    ty_uint = int_type(4, 1);
    ty_long = int_type(8, 0);
    ty_ulong = int_type(8, 1);
    intern_str("__NCC__")->macro = xalloc(sizeof(Macro));
}

static void usage(void) {
    fputs("usage: ncc [-o OUT] [-I DIR] [-L LIBDIR] FILE.c\n", stderr);
    exit(2);
}

int main(int argc, char **argv) {
    char *out = "a.out", *in = 0, *libdir = NCC_LIBDIR;
    int i;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "-I") && i + 1 < argc && nincdirs < 14) incdirs[nincdirs++] = argv[++i];
        else if (!strcmp(argv[i], "-L") && i + 1 < argc) libdir = argv[++i];
        else if (argv[i][0] == '-' || in) usage();
        else in = argv[i];
    }
    if (!in) usage();
    init();
    incdirs[nincdirs++] = libdir;
    /* the library first: its headers' guards then hold for the program */
    preprocess(join_path(libdir, strlen(libdir), "libc.c"));
    preprocess(in);
    tl_push(&ppout, eof_tok);
    toks = ppout.v;
    pos = 0;
    tok = toks[0];
    /* _start: main(argc, argv), then exit with its result */
    emit(0x910003E0); /* mov x0, sp */
    emit(0xF9400001); /* ldr x1, [x0] */
    emit(0x91002002); /* add x2, x0, #8 */
    e_push(2);
    e_push(1);
    add_reloc(R_BL, ncode, global_sym(intern_str("main"), 1));
    emit(0x94000000);
    e_push(0);
    add_reloc(R_BL, ncode, global_sym(intern_str("exit"), 1));
    emit(0x94000000);
    toplevel();
    write_elf(out);
    return 0;
}
