"""Straight-line candidate programs, as the search families build them, and
their lowering to nCPU assembly.

A `Step` is one ALU operation: `rd = op(ra, rb)` where the second operand is
a register or a constant. The lowering picks the immediate form when the
constant fits it and otherwise loads the constant into a scratch register,
so every search works on a uniform, easy-to-mutate shape.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ncpu.isa.opcodes import NUM_REGISTERS
from ncpu.synth import vecops

IMM15 = (-(1 << 14), (1 << 14) - 1)
IMM21 = (-(1 << 20), (1 << 20) - 1)
# Binary ops with an immediate form, and the range of constants it accepts.
_IMMEDIATE = {"ADD": IMM15, "AND": IMM15, "OR": IMM15, "XOR": IMM15,
              "SHL": (0, 31), "SHR": (0, 31), "SAR": (0, 31)}


@dataclass(frozen=True)
class Step:
    op: str  # a BINARY or UNARY name, "MOV" (rd = ra) or "MOVC" (rd = const)
    rd: int
    ra: int = 0
    rb: int | None = None  # None: the second operand is `const`
    const: int = 0

    def reads(self) -> tuple[int, ...]:
        if self.op == "MOVC":
            return ()
        if self.op in vecops.BINARY and self.rb is not None:
            return (self.ra, self.rb)
        return (self.ra,)


def run_steps(steps: list[Step], registers: np.ndarray) -> np.ndarray:
    """Execute on a [8, E] array of register values (one column per example)."""
    regs = registers.copy()
    for s in steps:
        if s.op == "MOVC":
            regs[s.rd] = s.const
        elif s.op == "MOV":
            regs[s.rd] = regs[s.ra]
        elif s.op in vecops.UNARY:
            regs[s.rd] = vecops.UNARY[s.op](regs[s.ra])
        else:
            b = regs[s.rb] if s.rb is not None else np.full_like(regs[s.ra], s.const)
            regs[s.rd] = vecops.BINARY[s.op](regs[s.ra], b)
    return regs


def _fits(value: int, bounds: tuple[int, int]) -> bool:
    return bounds[0] <= value <= bounds[1]


def lower(steps: list[Step]) -> list[str] | None:
    """Assembly lines for the steps, or None when a constant needs a scratch
    register and all eight are in use."""
    used = {r for s in steps for r in (s.rd, *s.reads())}
    free = [r for r in range(NUM_REGISTERS - 1, -1, -1) if r not in used]
    lines = []
    for s in steps:
        if s.op == "MOVC":
            lines.append(f"MOV R{s.rd}, {s.const}")
        elif s.op in ("MOV", *vecops.UNARY):
            lines.append(f"{s.op} R{s.rd}, R{s.ra}")
        elif s.rb is not None:
            lines.append(f"{s.op} R{s.rd}, R{s.ra}, R{s.rb}")
        elif s.op in _IMMEDIATE and _fits(s.const, _IMMEDIATE[s.op]):
            lines.append(f"{s.op} R{s.rd}, R{s.ra}, {s.const}")
        elif s.op == "SUB" and _fits(-s.const, IMM15):
            lines.append(f"ADD R{s.rd}, R{s.ra}, {-s.const}")
        else:
            if not free:
                return None
            lines.append(f"MOV R{free[0]}, {s.const}")
            lines.append(f"{s.op} R{s.rd}, R{s.ra}, R{free[0]}")
    return lines


def prune(steps: list[Step], outputs: tuple[int, ...]) -> list[Step]:
    """Drop steps whose result never reaches an output (dead code)."""
    live = set(outputs)
    kept = []
    for s in reversed(steps):
        if s.rd in live:
            live.discard(s.rd)
            live.update(s.reads())
            kept.append(s)
    return kept[::-1]
