"""The nsl abstract syntax tree: what the parser builds and the code generator walks.

Every node carries the line and column of its first token, so that a later
error (an undefined name, a wrong argument count) can point at it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Node:
    line: int
    column: int


# -- expressions ---------------------------------------------------------------

@dataclass
class Num(Node):
    value: int            # already wrapped to a signed 32-bit word


@dataclass
class Name(Node):
    name: str


@dataclass
class Index(Node):        # array[index]
    name: str
    index: Node


@dataclass
class Unary(Node):
    op: str               # '-' '~' '!'
    operand: Node


@dataclass
class Binary(Node):
    op: str               # arithmetic, bitwise, comparison, '&&', '||'
    left: Node
    right: Node


@dataclass
class Conditional(Node):  # cond ? then : otherwise
    cond: Node
    then: Node
    otherwise: Node


@dataclass
class Call(Node):
    name: str
    args: list[Node]      # a print argument may be a Str


@dataclass
class Str(Node):          # only as an argument of print
    text: str


# -- statements ----------------------------------------------------------------

@dataclass
class Declare(Node):      # int x; / int x = e;  (a local)
    name: str
    value: Node | None


@dataclass
class Assign(Node):       # target = value, target op= value, target++ (op '+', value 1)
    target: Node          # Name or Index
    op: str | None        # None for plain '='; else the binary operator
    value: Node


@dataclass
class ExprStmt(Node):
    expr: Node


@dataclass
class If(Node):
    cond: Node
    then: Node
    otherwise: Node | None


@dataclass
class While(Node):
    cond: Node
    body: Node


@dataclass
class For(Node):
    init: Node | None
    cond: Node | None
    step: Node | None
    body: Node


@dataclass
class Return(Node):
    value: Node | None


@dataclass
class Break(Node):
    pass


@dataclass
class Continue(Node):
    pass


@dataclass
class Block(Node):
    body: list[Node]


# -- top level -----------------------------------------------------------------

@dataclass
class Global(Node):       # int x = c;  int a[n] = {c, ...};
    name: str
    size: int | None      # None: a scalar; else the array length
    values: list[int] = field(default_factory=list)


@dataclass
class Function(Node):
    name: str
    params: list[str]
    body: Block


@dataclass
class Module(Node):
    globals: list[Global]
    functions: list[Function]
