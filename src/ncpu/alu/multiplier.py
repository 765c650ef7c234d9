"""Multiplication: a learned digit-pair product table, partial products
summed by the neural adder.

The n-bit operands are cut into 4 digits of d = n/4 bits (bytes at 32 bits).
The table holds, for every pair of digits, logits for the 2d bits of their
product: [256, 256, 16] at 32 bits, as in the original. The low n bits of
a * b need the 10 digit pairs (k, l) with k + l <= 3; their products are
packed without overlap into 7 rows of n bits (e.g. A0*B0 in bits 0..15 and
A1*B1 in bits 16..31 share a row) and the rows are summed by a tree of
carry-select adders, each tree level one batched adder call:
7 rows -> 4 -> 2 -> 1. Sequential layers: 1 (lookup) + 3 levels x 3.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from ncpu.alu.adder import CarrySelectAdder
from ncpu.alu.threshold import heaviside

# (digit of a, digit of b, row) for the digit pairs that reach the low n bits.
PAIRS = ((0, 0, 0), (1, 1, 0), (0, 1, 1), (3, 0, 1), (1, 0, 2), (0, 3, 2),
         (0, 2, 3), (2, 0, 4), (1, 2, 5), (2, 1, 6))
ROWS = 7


def product_targets(digit_bits: int) -> Tensor:
    """Bits (LSB first) of x*y for every digit pair: [2^d, 2^d, 2d] floats."""
    v = torch.arange(1 << digit_bits)
    prod = v[:, None] * v[None, :]
    return ((prod.unsqueeze(-1) >> torch.arange(2 * digit_bits)) & 1).float()


class DigitProductMultiplier(nn.Module):
    def __init__(self, width: int = 32, adder: CarrySelectAdder | None = None):
        super().__init__()
        if width % 4:
            raise ValueError("multiplier width must be a multiple of 4")
        d = width // 4
        self.width, self.digit_bits = width, d
        self.product_logits = nn.Parameter(torch.zeros(1 << d, 1 << d, 2 * d))
        # The adder is shared with the ALU, not owned: keep it out of this
        # module's parameters (a plain attribute behind a tuple).
        self._adder = (adder,)
        # Where every bit of every row comes from in the flat product vector
        # (index 20d = a constant zero).
        pad = len(PAIRS) * 2 * d
        place = torch.full((ROWS, width), pad, dtype=torch.int64)
        for p, (k, l, row) in enumerate(PAIRS):
            offset = d * (k + l)
            for bit in range(min(2 * d, width - offset)):
                place[row, offset + bit] = p * 2 * d + bit
        self.register_buffer("placement", place.view(-1), persistent=False)
        self.register_buffer("digit_weights", 2 ** torch.arange(d), persistent=False)
        self.register_buffer("pair_a", torch.tensor([k for k, _, _ in PAIRS]), persistent=False)
        self.register_buffer("pair_b", torch.tensor([l for _, l, _ in PAIRS]), persistent=False)
        self._cache: dict = {}

    @property
    def adder(self) -> CarrySelectAdder:
        return self._adder[0]

    def analytic_(self) -> DigitProductMultiplier:
        with torch.no_grad():
            self.product_logits.copy_(2 * product_targets(self.digit_bits) - 1)
        return self

    def table(self, temperature=None) -> Tensor:
        """Product bits of every digit pair, flattened to [2^2d, 2d]."""
        logits = self.product_logits.view(-1, 2 * self.digit_bits)
        if temperature is not None or (torch.is_grad_enabled() and logits.requires_grad):
            return heaviside(logits, temperature)
        key = (logits._version, logits.device)
        if self._cache.get("table", (None,))[0] != key:
            self._cache["table"] = (key, heaviside(logits.detach()))
        return self._cache["table"][1]

    def partial_rows(self, a: Tensor, b: Tensor, temperature=None) -> Tensor:
        """Layer 1, the lookup: bits [B, n] -> 7 rows of partial products [B, 7, n]."""
        B, d = a.shape[0], self.digit_bits
        da = (a.view(B, 4, d).long() * self.digit_weights).sum(-1)  # digit values: the lookup index
        db = (b.view(B, 4, d).long() * self.digit_weights).sum(-1)
        index = da[:, self.pair_a] * (1 << d) + db[:, self.pair_b]  # [B, 10]
        products = self.table(temperature)[index].view(B, -1)
        flat = torch.cat([products, products.new_zeros(B, 1)], 1)
        return flat[:, self.placement].view(B, ROWS, self.width)

    def forward(self, a: Tensor, b: Tensor, temperature=None) -> Tensor:
        B, n = a.shape
        rows = self.partial_rows(a, b, temperature)
        add = self.adder
        # 7 -> 4: (0+1), (2+3), (4+5), 6
        s, _ = add(rows[:, 0:6:2].reshape(-1, n), rows[:, 1:6:2].reshape(-1, n), temperature=temperature)
        s = torch.cat([s.view(B, 3, n), rows[:, 6:]], 1)
        # 4 -> 2 -> 1
        s, _ = add(s[:, 0::2].reshape(-1, n), s[:, 1::2].reshape(-1, n), temperature=temperature)
        s = s.view(B, 2, n)
        s, _ = add(s[:, 0], s[:, 1], temperature=temperature)
        return s

    sequential_layers = 1 + 3 * CarrySelectAdder.sequential_layers
