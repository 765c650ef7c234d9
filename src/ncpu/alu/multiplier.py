"""Multiplication: a learned digit-pair product table, then one layer of
wrap neurons.

The n-bit operands are cut into 4 digits of d = n/4 bits (bytes at 32 bits).
The table holds, for every pair of digits, logits for the 2d bits of their
product: [256, 256, 16] at 32 bits, as in the original. The low n bits of
a * b need the 10 digit pairs (k, l) with k + l <= 3 (layer 1: the lookup).

The products are not summed by a tree of adders (9 more layers). A linear
unit sums them in float64, each product bit weighted by 2^(its position),
bits at positions >= n dropped: V = sum of the placed products, an integer
with a * b = V (mod 2^n) and 0 <= V < 7 * 2^n (the 10 products fit without
overlap in 7 rows of n bits, as the original's adder tree placed them).
Layer 2 is threshold units on V, each at an integer plus 1/2 (margin 1/2):
  c_m = [V >= m 2^n - 2^(n-1)], m = 1..7: the signed result is
        v = V - 2^n sum_m c_m, in [-2^(n-1), 2^(n-1));
  f_m = [V >= m 2^n], m = 1..7, g_m = [V > m 2^n], m = 0..7: then
        Z = 1 + sum f - sum g (V is a multiple of 2^n) and N = sum (c - f).
The read-out is linear: [v, Z pre, N pre]. Every sum stays below 2^(n+4):
exact in float64 (n <= 48).
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

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
    def __init__(self, width: int = 32):
        super().__init__()
        if width % 4 or width > 48:
            raise ValueError("multiplier width must be a multiple of 4, at most 48")
        d = width // 4
        self.width, self.digit_bits = width, d
        self.product_logits = nn.Parameter(torch.zeros(1 << d, 1 << d, 2 * d))
        # The weight of every product bit in V: 2^(position), 0 past bit n-1.
        place = torch.zeros(len(PAIRS) * 2 * d, dtype=torch.float64)
        for p, (k, l, _) in enumerate(PAIRS):
            offset = d * (k + l)
            for bit in range(min(2 * d, width - offset)):
                place[p * 2 * d + bit] = float(1 << (offset + bit))
        m = torch.arange(1, ROWS + 1, dtype=torch.float64)
        full = float(1 << width)
        # Layer 2's thresholds: c_m (7), f_m (7), g_m (8), as pre = V - threshold.
        thresholds = torch.cat([m * full - full / 2 - 0.5, m * full - 0.5, torch.arange(ROWS + 1, dtype=torch.float64) * full + 0.5])
        self.register_buffer("place", place, persistent=False)
        self.register_buffer("thresholds", thresholds, persistent=False)
        # Read-out over [V, c, f, g]: v = V - 2^n sum c, Z = sum f - sum g + 1/2, N = sum c - sum f - 1/2.
        w_out = torch.zeros(1 + len(thresholds), 3, dtype=torch.float64)
        w_out[0, 0] = 1.0
        w_out[1:1 + ROWS, 0] = -full
        w_out[1 + ROWS:1 + 2 * ROWS, 1] = 1.0
        w_out[1 + 2 * ROWS:, 1] = -1.0
        w_out[1:1 + ROWS, 2] = 1.0
        w_out[1 + ROWS:1 + 2 * ROWS, 2] = -1.0
        self.register_buffer("w_out", w_out, persistent=False)
        self.register_buffer("b_out", torch.tensor([0.0, 0.5, -0.5], dtype=torch.float64), persistent=False)
        self.register_buffer("digit_weights", 2 ** torch.arange(d), persistent=False)
        self.register_buffer("pair_a", torch.tensor([k for k, _, _ in PAIRS]), persistent=False)
        self.register_buffer("pair_b", torch.tensor([l for _, l, _ in PAIRS]), persistent=False)
        self._cache: dict = {}

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

    def products(self, a: Tensor, b: Tensor, temperature=None) -> Tensor:
        """Layer 1, the lookup: bits [B, n] -> the 10 products' bits [B, 20d]."""
        B, d = a.shape[0], self.digit_bits
        da = (a.view(B, 4, d).long() * self.digit_weights).sum(-1)  # digit values: the lookup index
        db = (b.view(B, 4, d).long() * self.digit_weights).sum(-1)
        index = da[:, self.pair_a] * (1 << d) + db[:, self.pair_b]  # [B, 10]
        return self.table(temperature)[index].view(B, -1)

    def wrap(self, products: Tensor, temperature=None, margins: list | None = None) -> Tensor:
        """Layer 2 and the read-out: product bits [B, 20d] -> [v, Z pre, N pre] float64 [B, 3]."""
        V = products.to(torch.float64) @ self.place[:, None]  # [B, 1]
        pre = V - self.thresholds
        if margins is not None:
            margins.append(float(pre.abs().min()))
        fired = heaviside(pre, temperature)
        return torch.addmm(self.b_out, torch.cat([V, fired], 1), self.w_out)

    def forward(self, a: Tensor, b: Tensor, temperature=None, margins: list | None = None) -> Tensor:
        """Bits [B, n] -> [a * b (signed, mod 2^n), Z pre, N pre] float64 [B, 3]."""
        return self.wrap(self.products(a, b, temperature), temperature, margins)

    sequential_layers = 2
