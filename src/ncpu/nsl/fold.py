"""Constant expressions, evaluated at compile time with the machine's own
semantics (`ncpu.isa.semantics`): 32-bit wrapping, x/0 = 0, x%0 = x."""

from __future__ import annotations

from ncpu.isa import semantics as sem
from ncpu.nsl.syntax import Binary, Conditional, Node, Num, Unary

# nsl operator -> ISA mnemonic, for the operators the ALU computes.
ALU_OPS = {"+": "ADD", "-": "SUB", "*": "MUL", "/": "DIV", "%": "MOD", "&": "AND", "|": "OR", "^": "XOR",
           "<<": "SHL", ">>": "SAR", ">>>": "SHR"}
# Comparisons (signed) as Python predicates on signed values.
COMPARISONS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
               "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def evaluate(op: str, a: int, b: int) -> int:
    """The value of `a op b` on signed 32-bit words, as the compiled code computes it."""
    if op in ALU_OPS:
        return sem.BINARY[ALU_OPS[op]](a, b)
    if op in COMPARISONS:
        return int(COMPARISONS[op](a, b))
    if op == "&&":
        return int(a != 0 and b != 0)
    if op == "||":
        return int(a != 0 or b != 0)
    raise ValueError(op)


def evaluate_unary(op: str, a: int) -> int:
    return {"-": sem.wrap(-a), "~": ~a, "!": int(a == 0)}[op]


def constant(node: Node) -> int | None:
    """The value of a constant expression, or None if it depends on run time."""
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Unary):
        inner = constant(node.operand)
        return None if inner is None else evaluate_unary(node.op, inner)
    if isinstance(node, Conditional):
        cond = constant(node.cond)
        if cond is None:
            return None
        return constant(node.then if cond else node.otherwise)
    if isinstance(node, Binary):
        left, right = constant(node.left), constant(node.right)
        if left is None or right is None:
            return None
        return evaluate(node.op, left, right)
    return None
