"""Larger components for enumeration: operations the nCPU ISA lacks, each
a fixed expansion into its instructions (a library routine, as a compiler
has for them).

`MULHU(a, b)` is the high word of the unsigned 64-bit product, ARM64's
UMULH or RISC-V's MULHU: the nCPU multiplier keeps only the low word. The
enumerator treats it as one operation (one node of a term), so a program
that needs the high word -- Hacker's Delight P25, or unsigned division by a
constant as `mulhu(x, magic) >> s` -- costs one level of search instead of
the fifteen operations and two carries over 16-bit halves that it takes
written out. Found terms are expanded into primitive terms before
compilation (`expand`), with the halves shared, so the emitted program is
ordinary nCPU code and is checked like every other candidate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ncpu.synth import terms as T
from ncpu.synth import vecops

HALF = 0xFFFF


def _mulhu_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    ua, ub = vecops.unsigned(a), vecops.unsigned(b)
    a0, a1, b0, b1 = ua & HALF, ua >> 16, ub & HALF, ub >> 16
    # Every partial sum stays below 2^35: exact in int64.
    middle = a1 * b0 + a0 * b1 + ((a0 * b0) >> 16)
    return vecops.wrap(a1 * b1 + (middle >> 16))


def _mulhu_term(a: T.Term, b: T.Term) -> T.Term:
    """The textbook expansion (Hacker's Delight 8-2, unsigned): the middle
    sum is split so that no 32-bit addition carries out."""
    mask, sixteen = T.const(HALF), T.const(16)
    a0, a1 = T.binary("AND", a, mask), T.binary("SHR", a, sixteen)
    b0, b1 = T.binary("AND", b, mask), T.binary("SHR", b, sixteen)
    t = T.binary("ADD", T.binary("MUL", a1, b0), T.binary("SHR", T.binary("MUL", a0, b0), sixteen))
    w1 = T.binary("ADD", T.binary("AND", t, mask), T.binary("MUL", a0, b1))
    high = T.binary("ADD", T.binary("MUL", a1, b1), T.binary("SHR", t, sixteen))
    return T.binary("ADD", high, T.binary("SHR", w1, sixteen))


@dataclass(frozen=True)
class Macro:
    values: Callable  # numpy columns -> numpy columns, like vecops.BINARY
    expand: Callable  # (Term, Term) -> Term over primitive operations
    length: int  # instructions of its expansion
    commutative: bool


MACROS = {
    "MULHU": Macro(_mulhu_values, _mulhu_term, 17, True),
}


def allowed(spec) -> list[str]:
    """Macros a spec admits: none under an opcode list (their expansions use
    whatever they need) or a length limit they alone would break."""
    if spec.opcodes is not None:
        return []
    return [name for name, m in MACROS.items() if spec.max_length is None or m.length <= spec.max_length]


def node(op: str, a: T.Term, b: T.Term) -> T.Term:
    """A binary term, with a macro expanded into primitive terms."""
    return MACROS[op].expand(a, b) if op in MACROS else T.binary(op, a, b)
