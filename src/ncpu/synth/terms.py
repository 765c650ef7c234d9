"""Expression DAGs over the inputs, and their compilation to register code.

The enumerative and sketch searches find *expressions* (trees of ALU ops over
input registers, constants and memory loads); this module turns a set of
them into nCPU assembly with a linear-scan register allocator, then moves
each result into its output register (or stores it to its memory cell).
"""

from __future__ import annotations

from dataclasses import dataclass

from ncpu.isa.opcodes import NUM_REGISTERS
from ncpu.synth import vecops
from ncpu.synth.program import IMM15


@dataclass(frozen=True)
class Term:
    kind: str  # "input", "const", "load", "unary", "binary"
    op: str = ""
    args: tuple = ()  # child Terms
    value: int = 0  # register (input, load base), constant, or load offset

    def size(self) -> int:
        return 1 + sum(a.size() for a in self.args)

    def __str__(self) -> str:
        if self.kind == "input":
            return f"r{self.value}"
        if self.kind == "const":
            return str(self.value)
        if self.kind == "load":
            return f"mem[r{self.args[0].value}+{self.value}]"
        if self.kind == "unary":
            return f"{self.op}({self.args[0]})"
        return f"{self.op}({self.args[0]}, {self.args[1]})"


def inp(r: int) -> Term:
    return Term("input", value=r)


def const(c: int) -> Term:
    return Term("const", value=c)


def load(base: int, offset: int) -> Term:
    return Term("load", args=(inp(base),), value=offset)


def binary(op: str, a: Term, b: Term) -> Term:
    return Term("binary", op, (a, b))


def unary(op: str, a: Term) -> Term:
    return Term("unary", op, (a,))


_IMMEDIATE = {"ADD": IMM15, "AND": IMM15, "OR": IMM15, "XOR": IMM15,
              "SHL": (0, 31), "SHR": (0, 31), "SAR": (0, 31)}


def _immediate(term: Term) -> bool:
    """Is this binary node's constant operand written as an immediate?"""
    if term.kind != "binary" or term.args[1].kind != "const":
        return False
    c = term.args[1].value
    if term.op == "SUB":
        return IMM15[0] <= -c <= IMM15[1]
    return term.op in _IMMEDIATE and _IMMEDIATE[term.op][0] <= c <= _IMMEDIATE[term.op][1]


class _OutOfRegisters(Exception):
    pass


def compile_terms(registers: dict[int, Term], stores: list[tuple[Term, Term, int]] | None = None,
                  inputs: tuple[int, ...] = ()) -> list[str] | None:
    """Assembly computing each `registers[r]` into Rr and performing each
    store `(value, base, offset)`; None if eight registers are not
    enough. Inputs live in their own registers until their last use."""
    stores = stores or []
    order: list[Term] = []
    seen: set[Term] = set()

    def visit(t: Term) -> None:
        if t in seen:
            return
        for i, child in enumerate(t.args):
            if i == 1 and _immediate(t):
                continue
            visit(child)
        seen.add(t)
        order.append(t)

    roots = list(registers.values()) + [v for v, _, _ in stores] + [b for _, b, _ in stores]
    for root in roots:
        visit(root)
    # Last position in `order` where each term is read (len(order) = read at the end).
    last_use: dict[Term, int] = {}
    for position, t in enumerate(order):
        for i, child in enumerate(t.args):
            if not (i == 1 and _immediate(t)):
                last_use[child] = position
    for root in roots:
        last_use[root] = len(order)
    live_inputs = [r for r in inputs if inp(r) in last_use]
    home: dict[Term, int] = {inp(r): r for r in live_inputs}
    free = [r for r in range(NUM_REGISTERS) if r not in live_inputs]
    lines: list[str] = []
    try:
        for position, t in enumerate(order):
            if t in home:
                continue
            # Operands read for the last time here give their registers back
            # first, so `ADD R1, R1, R2`-style reuse keeps register pressure low.
            for child in set(t.args):
                if child in home and last_use.get(child) == position:
                    free.append(home[child])
            free.sort()
            if not free:
                raise _OutOfRegisters
            # A result bound for an output register goes straight there when
            # that register is free, saving the final MOV.
            wanted = [r for r, root in registers.items() if root == t and r in free]
            rd = wanted[0] if wanted else free[0]
            free.remove(rd)
            lines.append(_emit(t, rd, home))
            home[t] = rd
        for value, base, offset in stores:
            lines.append(f"STORE R{home[value]}, [R{home[base]}{offset:+d}]")
        lines += _parallel_move({r: home[t] for r, t in registers.items()}, set(free))
    except _OutOfRegisters:
        return None
    return lines


def _emit(t: Term, rd: int, home: dict[Term, int]) -> str:
    if t.kind == "const":
        return f"MOV R{rd}, {t.value}"
    if t.kind == "input":  # an input register that is not in `inputs` reads as 0
        return f"MOV R{rd}, 0"
    if t.kind == "load":
        return f"LOAD R{rd}, [R{home[t.args[0]]}{t.value:+d}]"
    if t.kind == "unary":
        return f"{t.op} R{rd}, R{home[t.args[0]]}"
    a = home[t.args[0]]
    if _immediate(t):
        c = t.args[1].value
        if t.op == "SUB":
            return f"ADD R{rd}, R{a}, {-c}"
        return f"{t.op} R{rd}, R{a}, {c}"
    return f"{t.op} R{rd}, R{a}, R{home[t.args[1]]}"


def _parallel_move(moves: dict[int, int], free: set[int]) -> list[str]:
    """Moves dst <- src performed as if simultaneously (cycles via a free
    register, or XOR swaps when none is left)."""
    pending = {d: s for d, s in moves.items() if d != s}
    lines = []
    while pending:
        ready = [d for d in pending if d not in pending.values()]
        if ready:
            d = ready[0]
            lines.append(f"MOV R{d}, R{pending.pop(d)}")
            continue
        d, s = next(iter(pending.items()))  # a cycle: break it
        spare = next((r for r in sorted(free) if r not in pending and r not in pending.values()), None)
        if spare is not None:
            lines.append(f"MOV R{spare}, R{s}")
            pending[d] = spare
        else:
            lines += [f"XOR R{d}, R{d}, R{s}", f"XOR R{s}, R{s}, R{d}", f"XOR R{d}, R{d}, R{s}"]
            del pending[d]
            # d now holds old s, s holds old d: whoever wanted old d reads s.
            pending = {k: (s if v == d else v) for k, v in pending.items()}
            pending = {k: v for k, v in pending.items() if k != v}
    return lines


def evaluate(t: Term, registers, memory=None):
    """Value of a term on numpy columns: registers [8, E], memory [E, M]."""
    import numpy as np

    if t.kind == "input":
        return registers[t.value]
    if t.kind == "const":
        return np.full(registers.shape[1], t.value, dtype=np.int64)
    if t.kind == "load":
        base = evaluate(t.args[0], registers, memory)
        return memory[np.arange(memory.shape[0]), (base + t.value) % memory.shape[1]].astype(np.int64)
    if t.kind == "unary":
        return vecops.UNARY[t.op](evaluate(t.args[0], registers, memory))
    return vecops.BINARY[t.op](evaluate(t.args[0], registers, memory), evaluate(t.args[1], registers, memory))

