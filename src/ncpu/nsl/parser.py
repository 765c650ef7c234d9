"""Tokens -> the syntax tree (recursive descent, one function per grammar rule).

The grammar is in docs/nsl.md. Operators use C's precedence, from loosest
to tightest: ?: || && | ^ & (== !=) (< <= > >=) (<< >> >>>) (+ -) (* / %),
then the unary - ~ !, then calls and indexing. Assignment is a statement,
not an expression.
"""

from __future__ import annotations

from ncpu.isa.semantics import wrap
from ncpu.nsl import syntax as ast
from ncpu.nsl.errors import NslError
from ncpu.nsl.fold import constant
from ncpu.nsl.lexer import Token, tokenize

# Binary precedence levels, loosest first.
LEVELS = (("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", "<=", ">", ">="),
          ("<<", ">>", ">>>"), ("+", "-"), ("*", "/", "%"))
COMPOUND = {"+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "&=": "&", "|=": "|", "^=": "^",
            "<<=": "<<", ">>=": ">>", ">>>=": ">>>"}
MAX_ARRAY = 1 << 20


class Parser:
    def __init__(self, tokens: list[Token]):
        self.tokens = tokens
        self.position = 0

    # -- token helpers -----------------------------------------------------------

    @property
    def token(self) -> Token:
        return self.tokens[self.position]

    def at(self, text: str) -> bool:
        t = self.token
        return t.kind in ("OP", "KEYWORD") and t.text == text

    def advance(self) -> Token:
        token = self.token
        if token.kind != "EOF":
            self.position += 1
        return token

    def accept(self, text: str) -> bool:
        if self.at(text):
            self.advance()
            return True
        return False

    def fail(self, expected: str, token: Token | None = None):
        token = token or self.token
        found = "end of file" if token.kind == "EOF" else f"'{token.text}'"
        raise NslError(token.line, token.column, f"expected {expected}, found {found}")

    def expect(self, text: str) -> Token:
        if not self.at(text):
            self.fail(f"'{text}'")
        return self.advance()

    def name(self) -> Token:
        if self.token.kind != "IDENT":
            self.fail("a name")
        return self.advance()

    # -- top level -----------------------------------------------------------------

    def module(self) -> ast.Module:
        globals_, functions = [], []
        while self.token.kind != "EOF":
            start = self.expect("int")
            name = self.name()
            if self.at("("):
                functions.append(self.function(start, name))
            else:
                globals_.append(self.global_(start, name))
        return ast.Module(1, 1, globals_, functions)

    def global_(self, start: Token, name: Token) -> ast.Global:
        size = None
        if self.accept("["):
            size_token = self.token
            size = self.constant_expression()
            if not 1 <= size <= MAX_ARRAY:
                raise NslError(size_token.line, size_token.column, f"array size {size} outside 1..{MAX_ARRAY}")
            self.expect("]")
        values: list[int] = []
        if self.accept("="):
            if size is None:
                values = [self.constant_expression()]
            else:
                brace = self.expect("{")
                if not self.at("}"):
                    values.append(self.constant_expression())
                    while self.accept(","):
                        values.append(self.constant_expression())
                self.expect("}")
                if len(values) > size:
                    raise NslError(brace.line, brace.column, f"{len(values)} initial values for an array of {size}")
        self.expect(";")
        return ast.Global(start.line, start.column, name.text, size, values)

    def constant_expression(self) -> int:
        token = self.token
        value = constant(self.expression())
        if value is None:
            raise NslError(token.line, token.column, "expected a constant expression")
        return value

    def function(self, start: Token, name: Token) -> ast.Function:
        self.expect("(")
        params: list[str] = []
        if not self.at(")"):
            while True:
                self.expect("int")
                param = self.name()
                if param.text in params:
                    raise NslError(param.line, param.column, f"parameter '{param.text}' is named twice")
                params.append(param.text)
                if not self.accept(","):
                    break
        self.expect(")")
        if not self.at("{"):
            self.fail("'{' to open the function body")
        return ast.Function(start.line, start.column, name.text, params, self.block())

    # -- statements ----------------------------------------------------------------

    def block(self) -> ast.Block:
        start = self.expect("{")
        body = []
        while not self.at("}"):
            if self.token.kind == "EOF":
                self.fail("'}'")
            body.append(self.statement())
        self.advance()
        return ast.Block(start.line, start.column, body)

    def statement(self) -> ast.Node:
        t = self.token
        if self.at("{"):
            return self.block()
        if self.accept("int"):
            statement = self.declaration(t)
            self.expect(";")
            return statement
        if self.accept("if"):
            self.expect("(")
            cond = self.expression()
            self.expect(")")
            then = self.statement()
            otherwise = self.statement() if self.accept("else") else None
            return ast.If(t.line, t.column, cond, then, otherwise)
        if self.accept("while"):
            self.expect("(")
            cond = self.expression()
            self.expect(")")
            return ast.While(t.line, t.column, cond, self.statement())
        if self.accept("for"):
            return self.for_(t)
        if self.accept("return"):
            value = None if self.at(";") else self.expression()
            self.expect(";")
            return ast.Return(t.line, t.column, value)
        if self.accept("break"):
            self.expect(";")
            return ast.Break(t.line, t.column)
        if self.accept("continue"):
            self.expect(";")
            return ast.Continue(t.line, t.column)
        if self.at(";"):
            self.advance()
            return ast.Block(t.line, t.column, [])
        statement = self.simple()
        self.expect(";")
        return statement

    def declaration(self, start: Token) -> ast.Declare:
        name = self.name()
        if self.at("["):
            raise NslError(self.token.line, self.token.column, "arrays are global: declare them outside functions")
        value = self.expression() if self.accept("=") else None
        return ast.Declare(start.line, start.column, name.text, value)

    def for_(self, start: Token) -> ast.For:
        self.expect("(")
        init = None
        if not self.at(";"):
            t = self.token
            init = self.declaration(t) if self.accept("int") else self.simple()
        self.expect(";")
        cond = None if self.at(";") else self.expression()
        self.expect(";")
        step = None if self.at(")") else self.simple()
        self.expect(")")
        return ast.For(start.line, start.column, init, cond, step, self.statement())

    def simple(self) -> ast.Node:
        """An assignment, an increment or an expression (a call) used as a statement."""
        t = self.token
        target = self.expression()
        if self.at("=") or self.token.text in COMPOUND and self.token.kind == "OP":
            op_token = self.advance()
            self.check_target(target, op_token)
            value = self.expression()
            return ast.Assign(t.line, t.column, target, COMPOUND.get(op_token.text), value)
        if self.at("++") or self.at("--"):
            op_token = self.advance()
            self.check_target(target, op_token)
            return ast.Assign(t.line, t.column, target, "+" if op_token.text == "++" else "-",
                              ast.Num(op_token.line, op_token.column, 1))
        if not isinstance(target, ast.Call):
            raise NslError(t.line, t.column, "expected a statement: an assignment, a call or a keyword")
        return ast.ExprStmt(t.line, t.column, target)

    def check_target(self, target: ast.Node, op: Token) -> None:
        if not isinstance(target, (ast.Name, ast.Index)):
            raise NslError(target.line, target.column, f"the left of '{op.text}' must be a variable or an array element")

    # -- expressions -----------------------------------------------------------------

    def expression(self) -> ast.Node:
        """The conditional `c ? a : b` (right-associative), loosest of all."""
        cond = self.binary(0)
        if not self.at("?"):
            return cond
        t = self.advance()
        then = self.expression()
        self.expect(":")
        return ast.Conditional(t.line, t.column, cond, then, self.expression())

    def binary(self, level: int) -> ast.Node:
        if level == len(LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.token.kind == "OP" and self.token.text in LEVELS[level]:
            op = self.advance()
            right = self.binary(level + 1)
            left = ast.Binary(op.line, op.column, op.text, left, right)
        return left

    def unary(self) -> ast.Node:
        t = self.token
        if t.kind == "OP" and t.text in ("-", "~", "!", "+"):
            self.advance()
            operand = self.unary()
            if t.text == "+":
                return operand
            if t.text == "-" and isinstance(operand, ast.Num):
                return ast.Num(t.line, t.column, wrap(-operand.value))
            return ast.Unary(t.line, t.column, t.text, operand)
        return self.postfix()

    def postfix(self) -> ast.Node:
        t = self.token
        if t.kind == "NUM":
            self.advance()
            return ast.Num(t.line, t.column, wrap(t.value))
        if t.kind == "STR":
            self.advance()
            return ast.Str(t.line, t.column, t.value)
        if self.accept("("):
            inner = self.expression()
            self.expect(")")
            return inner
        if t.kind != "IDENT":
            self.fail("an expression")
        self.advance()
        if self.accept("("):
            args = []
            if not self.at(")"):
                args.append(self.expression())
                while self.accept(","):
                    args.append(self.expression())
            self.expect(")")
            return ast.Call(t.line, t.column, t.text, args)
        if self.accept("["):
            index = self.expression()
            self.expect("]")
            return ast.Index(t.line, t.column, t.text, index)
        return ast.Name(t.line, t.column, t.text)


def parse(source: str) -> ast.Module:
    """Source text -> the syntax tree; raises NslError with line and column."""
    return Parser(tokenize(source)).module()
