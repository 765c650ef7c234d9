"""The nsl front end: tokens, the tree, and errors that name line and column."""

import pytest

from ncpu.nsl import NslError, compile_source, parse
from ncpu.nsl import syntax as ast
from ncpu.nsl.interpreter import interpret
from ncpu.nsl.lexer import tokenize


def test_tokens_carry_line_column_and_values():
    tokens = tokenize("int x = 0x1F; // c\n  y >>>= 'a' /* x\n */ \"s\\n\"")
    kinds = [(t.kind, t.text, t.line, t.column) for t in tokens[:5]]
    assert kinds == [("KEYWORD", "int", 1, 1), ("IDENT", "x", 1, 5), ("OP", "=", 1, 7), ("NUM", "0x1F", 1, 9),
                     ("OP", ";", 1, 13)]
    assert tokens[3].value == 31
    assert [(t.text, t.line, t.column) for t in tokens[5:7]] == [("y", 2, 3), (">>>=", 2, 5)]
    assert tokens[7].value == ord("a")
    assert tokens[8].kind == "STR" and tokens[8].value == "s\n" and (tokens[8].line, tokens[8].column) == (3, 5)
    assert tokens[-1].kind == "EOF"


def test_precedence_follows_c():
    body = parse("int main() { return 1 + 2 * 3 << 1 == 14 && !0 || 0 ? 7 : 8; }").functions[0].body.body[0]
    tree = body.value
    assert isinstance(tree, ast.Conditional)
    assert isinstance(tree.cond, ast.Binary) and tree.cond.op == "||"
    assert tree.cond.left.op == "&&" and tree.cond.left.left.op == "=="
    assert tree.cond.left.left.left.op == "<<" and tree.cond.left.left.left.left.op == "+"
    assert interpret("int main() { return 1 + 2 * 3 << 1 == 14 && !0 || 0 ? 7 : 8; }").status == 7


@pytest.mark.parametrize("source, line, column, reason", [
    ("int main() {\n  int x = 1 +;\n}", 2, 14, "expected an expression, found ';'"),
    ("int main() {\n  y = 2;\n}", 2, 3, "'y' is not defined"),
    ("int main() { return f(1); }\nint f(int a, int b) { return a; }", 1, 21, "'f' takes 2 argument(s), given 1"),
    ("int main() { break; }", 1, 14, "'break' outside a loop"),
    ("int a[4];\nint main() { return a; }", 2, 21, "array 'a' needs an index"),
    ("int x;\nint main() { return x[1]; }", 2, 21, "'x' is not an array"),
    ("int main() { int x = print(1); }", 1, 22, "'print' gives no value"),
    ("int main() { int x; int x; }", 1, 21, "'x' is already declared in this block"),
    ("int f() { return 0; }\nint f() { return 1; }\nint main() { return 0; }", 2, 1, "'f' is defined twice"),
    ("int print() { return 0; }", 1, 1, "'print' is a builtin and cannot be redefined"),
    ("int f() { return 0; }", 1, 1, "no function 'main'"),
    ("int main() { return 99999999999; }", 1, 21, "integer literal 99999999999 does not fit 32 bits"),
    # longer than Python converts (4,300 digits): the same error, the literal shortened
    ("int main() { return " + "9" * 5000 + "; }", 1, 21,
     "integer literal 99999999999999999999...(5000 characters) does not fit 32 bits"),
    ("int main() { return 0x1" + "0" * 4999 + "; }", 1, 21,
     "integer literal 0x100000000000000000...(5002 characters) does not fit 32 bits"),
    ("int main() { return 'ab'; }", 1, 21, "a character literal holds exactly one character"),
    ("int main() { print(\"x); }", 1, 20, "unterminated string literal"),
    ("int main() { return 1 $ 2; }", 1, 23, "unexpected character '$'"),
    ("int main() { 3 = 4; }", 1, 14, "the left of '=' must be a variable or an array element"),
    ("int main() { 1 + 1; }", 1, 14, "expected a statement: an assignment, a call or a keyword"),
    ("int n = 3;\nint a[n];\nint main() { return 0; }", 2, 7, "expected a constant expression"),
    ("int a[0];\nint main() { return 0; }", 1, 7, "array size 0 outside 1..1048576"),
    ("int a[2] = {1, 2, 3};\nint main() { return 0; }", 1, 12, "3 initial values for an array of 2"),
    ("int main(int a, int b, int c, int d, int e, int f) { return 0; }", 1, 1,
     "main takes at most 5 parameters (R1..R5)"),
    ("int main() {\n  return 1;\n", 3, 1, "expected '}', found end of file"),
    ("int main() { /* open", 1, 14, "unterminated comment"),
    ("int main() { int a[3]; }", 1, 19, "arrays are global: declare them outside functions"),
])
def test_errors_name_line_and_column(source, line, column, reason):
    with pytest.raises(NslError) as caught:
        compile_source(source)
    assert (caught.value.line, caught.value.column, caught.value.reason) == (line, column, reason)
    assert str(caught.value) == f"{line}:{column}: {reason}"


def test_leading_zeros_do_not_make_a_literal_too_long():
    assert tokenize("0" * 5000 + "7")[0].value == 7
    assert tokenize("0x" + "0" * 5000 + "FFFFFFFF")[0].value == 0xFFFFFFFF


def test_constants_fold_with_the_machine_semantics():
    assembly = compile_source("int main() { return (0x7FFFFFFF + 1) / -1 + 7 / 0 + (5 % 0) * 2; }").assembly
    # INT_MIN / -1 = INT_MIN; 7 / 0 = 0; 5 % 0 = 5: one MOV of -2147483638, no ALU instruction.
    body = assembly.split("fn0_main:")[1]
    assert "MOV  R0, -2147483638" in body and not any(op in body for op in ("DIV", "MOD", "ADD  R0"))


def test_the_layout_keeps_the_screen_free_and_fits_the_data():
    compiled = compile_source("int a[3000];\nint g = 5;\nint main() { print(\"hi\"); return g; }")
    assert min(compiled.globals.values()) >= 1024
    assert compiled.globals["g"] == compiled.globals["a"] + 3000
    assert compiled.frames_base > compiled.globals["g"] and compiled.mem_size >= compiled.frames_base + 3072
    assert f"; @mem-size {compiled.mem_size}" in compiled.assembly
    assert compiled.data[compiled.globals["g"]] == 5
    with pytest.raises(NslError, match="does not fit"):
        compile_source("int a[20000];\nint main() { return 0; }")
