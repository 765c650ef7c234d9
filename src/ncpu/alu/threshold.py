"""The two primitives every circuit is made of: a threshold unit and the
bit encoding of integers.

A threshold unit fires (outputs 1) when its pre-activation is positive.
Every exact circuit here is built so that no pre-activation is ever zero on
a valid input: analytic weights put every threshold half an integer away
from every reachable sum, and trained weights are verified to keep a
positive margin over their whole truth table (`ncpu.alu.verify`).

The soft variant (for gradients) keeps the hard 0/1 values in the forward
pass and routes gradients through a temperature-scaled sigmoid: the
straight-through estimator. Outputs stay exact; gradients are those of the
smooth surrogate.
"""

from __future__ import annotations

import torch
from torch import Tensor


def heaviside(pre: Tensor, temperature: float | None = None) -> Tensor:
    """1.0 where `pre > 0`, else 0.0, in pre's dtype.

    With a `temperature`, the value is the same but the gradient is that of
    sigmoid(pre / temperature) (straight-through)."""
    hard = (pre > 0).to(pre.dtype)
    if temperature is None:
        return hard
    soft = torch.sigmoid(pre / temperature)
    return soft + (hard - soft).detach()


def one_hot_argmax(logits: Tensor, temperature: float | None = None) -> Tensor:
    """One-hot of the argmax over the last dim; with a temperature, the
    gradient is that of softmax(logits / temperature) (straight-through)."""
    hard = torch.nn.functional.one_hot(logits.argmax(-1), logits.shape[-1]).to(logits.dtype)
    if temperature is None:
        return hard
    soft = torch.softmax(logits / temperature, dim=-1)
    return soft + (hard - soft).detach()


class BitCodec:
    """Signed n-bit integers (held in int64) <-> bit vectors, LSB first.

    This is the interface between the machine's registers and the circuits,
    not part of any circuit: encoding is `(x >> i) & 1`, decoding is the
    two's-complement weighted sum (the top bit weighs -2^(n-1))."""

    def __init__(self, width: int, device: torch.device | str | None = None,
                 dtype: torch.dtype = torch.float32):
        self.width = width
        self.dtype = dtype
        self.shifts = torch.arange(width, device=device, dtype=torch.int64)
        weights = [1 << i for i in range(width)]
        weights[-1] = -weights[-1]
        self.signed_weights = torch.tensor(weights, device=device, dtype=torch.int64)

    def to_bits(self, x: Tensor) -> Tensor:
        """int64 [...] -> float bits [..., n] (low n bits of x)."""
        return ((x.unsqueeze(-1) >> self.shifts) & 1).to(self.dtype)

    def to_int(self, bits: Tensor) -> Tensor:
        """float bits [..., n] -> signed int64 [...]."""
        return (bits.detach().to(torch.int64) * self.signed_weights).sum(-1)

    def to_unsigned(self, bits: Tensor) -> Tensor:
        return self.to_int(bits) & ((1 << self.width) - 1)
