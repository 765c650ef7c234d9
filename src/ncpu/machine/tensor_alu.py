"""The ALU the tensor engine calls for every piece of arithmetic and every flag.

`ncpu.machine.fast` never computes a result or a flag itself: it gathers
operands, calls a `TensorALU`, and scatters what comes back. Swapping in a
subclass whose methods run neural circuits turns the same engine into the
neural engine, with nothing copied.
"""

from __future__ import annotations

import torch
from torch import Tensor

MASK32 = 0xFFFFFFFF
INT_MIN = -(1 << 31)

BINARY_OPS = ("ADD", "SUB", "MUL", "DIV", "MOD", "AND", "OR", "XOR", "SHL", "SHR", "SAR")
UNARY_OPS = ("NOT", "NEG")
OPS = BINARY_OPS + UNARY_OPS


def wrap32(x: Tensor) -> Tensor:
    """Reduce int64 values to the signed 32-bit value with the same low bits."""
    return ((x + (1 << 31)) & MASK32) + INT_MIN


class TensorALU:
    """Exact 32-bit arithmetic on batches, as native torch ops.

    Interface (what a neural subclass overrides; keep the contracts):

    * ``compute(op, a, b) -> Tensor``: ``op`` is one of ``OPS``. ``a`` and
      ``b`` are int64 tensors of the same shape ``[K]`` (K machines that run
      that op this step, on the engine's device) holding signed 32-bit
      values; ``b`` is ``None`` for the unary ops NOT and NEG. Returns int64
      ``[K]``, the signed 32-bit result, exactly as
      ``ncpu.machine.semantics`` defines it (wrapping; x/0 = 0,
      INT_MIN/-1 = INT_MIN; x%0 = x; shift amounts are read as unsigned, so
      negative or >= 32 amounts give 0, or 0/-1 for SAR).
    * ``compare(a, b) -> (n, z, c, v)``: bool ``[K]`` each, the flags of
      ``a - b`` as ARM's SUBS sets them (C = no borrow, unsigned a >= b).
    * ``zero_negative(value) -> (z, n)``: bool ``[K]``, the flags every
      register write sets.

    The engine routes everything through these three methods: immediate
    forms pass the sign-extended immediate as ``b``; INC/DEC are ADD/SUB with
    ``b = 1``; MOVT is ``OR(SHL(imm16, 16), AND(rd, 0xFFFF))``. Only address
    arithmetic (LOAD/STORE base + offset, sp +- 1, all modulo the memory
    size; pc + 1) and the branch-condition lookup stay plain tensor code in
    the engine: they are plumbing, not the ALU. The engine calls ``compute``
    once per op present in a step, with only the machines that run it, so
    an expensive op costs nothing in steps where no machine uses it.
    """

    def compute(self, op: str, a: Tensor, b: Tensor | None) -> Tensor:
        method = getattr(self, f"op_{op.lower()}", None)
        if method is None or op not in OPS:
            raise ValueError(f"unknown ALU op {op!r}; expected one of {', '.join(OPS)}")
        return method(a) if op in UNARY_OPS else method(a, b)

    def compare(self, a: Tensor, b: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        result = wrap32(a - b)
        n = result < 0
        z = result == 0
        c = (a & MASK32) >= (b & MASK32)
        v = ((a < 0) != (b < 0)) & (n != (a < 0))
        return n, z, c, v

    def zero_negative(self, value: Tensor) -> tuple[Tensor, Tensor]:
        return value == 0, value < 0

    # One method per op, so a subclass may replace a few and keep the rest.
    def op_add(self, a: Tensor, b: Tensor) -> Tensor:
        return wrap32(a + b)

    def op_sub(self, a: Tensor, b: Tensor) -> Tensor:
        return wrap32(a - b)

    def op_mul(self, a: Tensor, b: Tensor) -> Tensor:
        return wrap32(a * b)  # |a*b| <= 2**62: exact in int64 before wrapping

    def op_div(self, a: Tensor, b: Tensor) -> Tensor:
        zero = b == 0
        quotient = torch.div(a, torch.where(zero, torch.ones_like(b), b), rounding_mode="trunc")
        return torch.where(zero, torch.zeros_like(a), wrap32(quotient))

    def op_mod(self, a: Tensor, b: Tensor) -> Tensor:
        return torch.where(b == 0, a, wrap32(a - self.op_div(a, b) * b))

    def op_and(self, a: Tensor, b: Tensor) -> Tensor:
        return a & b

    def op_or(self, a: Tensor, b: Tensor) -> Tensor:
        return a | b

    def op_xor(self, a: Tensor, b: Tensor) -> Tensor:
        return a ^ b

    def op_shl(self, a: Tensor, b: Tensor) -> Tensor:
        amount = b & MASK32
        big = amount >= 32
        return torch.where(big, torch.zeros_like(a), wrap32(a << torch.where(big, 0, amount)))

    def op_shr(self, a: Tensor, b: Tensor) -> Tensor:
        amount = b & MASK32
        big = amount >= 32
        return torch.where(big, torch.zeros_like(a), wrap32((a & MASK32) >> torch.where(big, 0, amount)))

    def op_sar(self, a: Tensor, b: Tensor) -> Tensor:
        return a >> torch.clamp(b & MASK32, max=31)  # a >> 31 is already 0 or -1

    def op_not(self, a: Tensor) -> Tensor:
        return ~a

    def op_neg(self, a: Tensor) -> Tensor:
        return wrap32(-a)
