"""The nCPU operations as native torch ops on n-bit words: the classical
oracle of the neural ALU, and the arithmetic of the tensor engine.

`ncpu.isa.semantics` is the definition, on Python integers; this is the same
meaning restated for tensors (a Python call per element would make
enumerating 2^32 operand pairs impossible), for any word width n so that the
narrow instances the proofs enumerate have an oracle too. Values are signed
n-bit words held in int64 tensors. tests/alu/test_exact.py checks every
operation at 32 bits against `ncpu.isa.semantics` on every pair of its edge
values and on random pairs; the narrower widths are the same expressions
with n in place of 32.

Users: `ncpu.machine.tensor_alu.TensorALU` (the fast engine's ALU, n = 32),
`ncpu.alu.verify` (expected values at 8, 16 and 32 bits), the gradient
search's exact forward pass (`ncpu.synth.gradient`).
"""

from __future__ import annotations

import torch
from torch import Tensor

from ncpu.isa.semantics import BINARY_OPS, OPS, UNARY_OPS

__all__ = ["BINARY_OPS", "ExactALU", "OPS", "UNARY_OPS"]


class ExactALU:
    """Exact n-bit arithmetic on int64 tensors of any (matching) shape."""

    # 32 bits unless constructed otherwise (subclasses need not call __init__).
    width, mask, half = 32, (1 << 32) - 1, 1 << 31

    def __init__(self, width: int = 32):
        self.width = n = width
        self.mask = (1 << n) - 1
        self.half = 1 << (n - 1)

    def wrap(self, x: Tensor) -> Tensor:
        """Reduce int64 values to the signed n-bit value with the same low bits."""
        return ((x + self.half) & self.mask) - self.half

    def compute(self, op: str, a: Tensor, b: Tensor | None) -> Tensor:
        """`op` (one of OPS) on a and b (None for NOT and NEG)."""
        if op not in OPS:
            raise ValueError(f"unknown ALU op {op!r}; expected one of {', '.join(OPS)}")
        method = getattr(self, f"op_{op.lower()}")
        return method(a) if op in UNARY_OPS else method(a, b)

    def compare(self, a: Tensor, b: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        """N, Z, C, V of a - b as ARM's SUBS sets them (C = no borrow)."""
        result = self.wrap(a - b)
        n = result < 0
        z = result == 0
        c = (a & self.mask) >= (b & self.mask)
        v = ((a < 0) != (b < 0)) & (n != (a < 0))
        return n, z, c, v

    def zero_negative(self, value: Tensor) -> tuple[Tensor, Tensor]:
        return value == 0, value < 0

    # One method per op, so a subclass may replace a few and keep the rest.
    def op_add(self, a: Tensor, b: Tensor) -> Tensor:
        return self.wrap(a + b)

    def op_sub(self, a: Tensor, b: Tensor) -> Tensor:
        return self.wrap(a - b)

    def op_mul(self, a: Tensor, b: Tensor) -> Tensor:
        return self.wrap(a * b)  # |a*b| <= 2**62: exact in int64 before wrapping

    def op_div(self, a: Tensor, b: Tensor) -> Tensor:
        zero = b == 0
        quotient = torch.div(a, torch.where(zero, torch.ones_like(b), b), rounding_mode="trunc")
        return torch.where(zero, torch.zeros_like(a), self.wrap(quotient))

    def op_mod(self, a: Tensor, b: Tensor) -> Tensor:
        return torch.where(b == 0, a, self.wrap(a - self.op_div(a, b) * b))

    def op_and(self, a: Tensor, b: Tensor) -> Tensor:
        return a & b

    def op_or(self, a: Tensor, b: Tensor) -> Tensor:
        return a | b

    def op_xor(self, a: Tensor, b: Tensor) -> Tensor:
        return a ^ b

    def op_shl(self, a: Tensor, b: Tensor) -> Tensor:
        amount = b & self.mask
        big = amount >= self.width
        return torch.where(big, torch.zeros_like(a), self.wrap(a << torch.where(big, 0, amount)))

    def op_shr(self, a: Tensor, b: Tensor) -> Tensor:
        amount = b & self.mask
        big = amount >= self.width
        return torch.where(big, torch.zeros_like(a), self.wrap((a & self.mask) >> torch.where(big, 0, amount)))

    def op_sar(self, a: Tensor, b: Tensor) -> Tensor:
        return a >> torch.clamp(b & self.mask, max=self.width - 1)  # a >> (n-1) is already 0 or -1

    def op_not(self, a: Tensor) -> Tensor:
        return ~a

    def op_neg(self, a: Tensor) -> Tensor:
        return self.wrap(-a)
