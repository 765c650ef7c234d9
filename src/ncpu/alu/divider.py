"""Signed division and remainder: restoring division on neural subtraction.

No parameters of its own: it wires the adder, the logic cells and the Z
neuron together.

  1. magnitudes |x| = (x XOR s) + s with s the sign bit (XOR cell, adder);
     |INT_MIN| = 2^(n-1) fits in n unsigned bits.
  2. n steps of restoring division, most significant bit first:
     R = (R << 1) | a_i (wiring); T = R - |b| (adder, NOT folded in); the
     carry out is 1 exactly when R >= |b| (no borrow): that is the quotient
     bit q_i, and R = q_i ? T : R (the multiplexer cell).
     R < |b| <= 2^(n-1) throughout, so R never needs more than n bits.
  3. signs: quotient negated when the operand signs differ, remainder takes
     the dividend's sign (XOR + adder again, both in one batched call).
  4. b = 0: the restoring loop then yields R = |a| (so x % 0 = x with no
     special case) and Q = all ones, which the Z neuron on b gates to 0.
     INT_MIN / -1 gives 2^(n-1), whose negation wraps to INT_MIN, as the
     reference says, again with no special case.
"""

from __future__ import annotations

import torch
from torch import Tensor

from ncpu.alu.adder import CarrySelectAdder
from ncpu.alu.flags import FlagNeurons
from ncpu.alu.logic import LogicCells


class RestoringDivider:
    def __init__(self, adder: CarrySelectAdder, logic: LogicCells, flags: FlagNeurons):
        self.adder, self.logic, self.flags = adder, logic, flags
        self.width = adder.width

    def _conditional_negate(self, x: Tensor, sign: Tensor, temperature=None) -> Tensor:
        """x if sign == 0 else -x (mod 2^n); sign [B, 1]."""
        flipped = self.logic.XOR(x, sign.expand_as(x), temperature)
        out, _ = self.adder(flipped, torch.zeros_like(x), sign[:, 0], temperature=temperature)
        return out

    def __call__(self, a: Tensor, b: Tensor, temperature=None) -> tuple[Tensor, Tensor]:
        """Bits [B, n] -> (quotient, remainder) bits [B, n], signed, truncating."""
        B, n = a.shape
        signs = torch.cat([a[:, -1:], b[:, -1:]], 0)  # [2B, 1]
        magnitude = self._conditional_negate(torch.cat([a, b], 0), signs, temperature)
        abs_a, abs_b = magnitude[:B], magnitude[B:]
        sa, sb = signs[:B], signs[B:]

        rem = torch.zeros_like(a)
        q_bits = []
        for i in range(n - 1, -1, -1):
            rem = torch.cat([abs_a[:, i:i + 1], rem[:, :-1]], 1)
            trial, carries = self.adder(rem, abs_b, 1.0, invert_b=True, temperature=temperature)
            q = carries[:, n:]
            rem = self.logic.MUX(q, trial, rem, temperature)
            q_bits.append(q)
        quotient = torch.cat(q_bits[::-1], 1)

        sq = self.logic.XOR(sa, sb, temperature)
        fixed = self._conditional_negate(torch.cat([quotient, rem], 0), torch.cat([sq, sa], 0), temperature)
        quotient, rem = fixed[:B], fixed[B:]
        b_zero, _ = self.flags(b, temperature)
        quotient = self.logic.AND(quotient, self.logic.NOT(b_zero, temperature)[:, None], temperature)
        return quotient, rem

    def sequential_layers(self) -> int:
        adder = CarrySelectAdder.sequential_layers
        negate = 2 + adder  # XOR cell, then the adder
        return negate + self.width * (adder + 1) + negate + 1
