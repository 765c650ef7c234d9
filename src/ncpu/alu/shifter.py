"""Shifts as attention routing.

The shift amount selects one of n + 1 "queries" (amounts 0..n-1, and one
class for every amount >= n, read as unsigned like the reference). Each
query owns a routing table: for every output position, logits over the n
source positions plus one fill slot. Hard attention (argmax, one-hot) makes
the routing a permutation-with-fill; the fill slot carries 0 for SHL/SHR
and the sign bit for SAR (the gate), and amounts >= n route every position
to the fill slot, which gives 0 or -1 as the reference does.

Layers, in order:
  1 high neuron: fires when any amount bit at position >= log2(n) is set.
    Weights tied over those bits, so its truth table is their popcount.
  2 decoder: n + 1 threshold neurons over (low log2(n) amount bits, high),
    exactly one fires: the one-hot query. Truth table: 2^(log2(n)+1) rows.
  3 routing: output = (one-hot query @ routing tables) applied to the
    source bits - one batched matmul (attention with hard weights).
Two routing tables are learned: left (SHL) and right (SHR and SAR).
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from ncpu.alu.threshold import heaviside, one_hot_argmax


def route_targets(width: int, direction: str) -> Tensor:
    """Index of the source (width = fill) for every (query, output position)."""
    s = torch.arange(width + 1)[:, None]
    i = torch.arange(width)[None, :]
    src = i - s if direction == "left" else i + s
    valid = (src >= 0) & (src < width) & (s < width)
    return torch.where(valid, src, torch.full_like(src, width))


def decoder_rows(width: int) -> tuple[Tensor, Tensor]:
    """All inputs (low amount bits, high) of the decoder and the class each means."""
    k = width.bit_length() - 1
    idx = torch.arange(1 << (k + 1))
    x = ((idx[:, None] >> torch.arange(k + 1)) & 1).float()
    cls = torch.where(x[:, k] > 0, torch.full_like(idx, width), idx & (width - 1))
    return x, cls


class ShiftRouter(nn.Module):
    def __init__(self, width: int = 32):
        super().__init__()
        if width & (width - 1):
            raise ValueError("shifter width must be a power of two")
        self.width = width
        self.amount_bits = width.bit_length() - 1
        self.high_w = nn.Parameter(torch.zeros(()))
        self.high_b = nn.Parameter(torch.zeros(()))
        self.decode_w = nn.Parameter(torch.zeros(width + 1, self.amount_bits + 1))
        self.decode_b = nn.Parameter(torch.zeros(width + 1))
        self.route_left = nn.Parameter(torch.zeros(width + 1, width, width + 1))
        self.route_right = nn.Parameter(torch.zeros(width + 1, width, width + 1))
        self._cache: dict = {}

    def analytic_(self) -> ShiftRouter:
        n, k = self.width, self.amount_bits
        with torch.no_grad():
            self.high_w.fill_(1.0)
            self.high_b.fill_(-0.5)
            # Class s < n: +1 on its set bits, -1 on its clear bits, -(k+1) on
            # high; fires only on an exact match (threshold popcount(s) - 0.5).
            for s in range(n):
                bits = torch.tensor([(s >> j) & 1 for j in range(k)], dtype=torch.float32)
                self.decode_w[s, :k] = 2 * bits - 1
                self.decode_w[s, k] = -(k + 1)
                self.decode_b[s] = -bits.sum() + 0.5
            self.decode_w[n].zero_()
            self.decode_w[n, k] = 1.0
            self.decode_b[n] = -0.5
            for table, direction in ((self.route_left, "left"), (self.route_right, "right")):
                table.copy_(torch.nn.functional.one_hot(route_targets(n, direction), n + 1).float())
        return self

    def high_pre(self, amount: Tensor) -> Tensor:
        return amount[:, self.amount_bits:].sum(-1) * self.high_w + self.high_b

    def decode_pre(self, x: Tensor) -> Tensor:
        return x @ self.decode_w.t() + self.decode_b

    def routes(self, direction: str, temperature=None) -> Tensor:
        """Hard (one-hot) routing tables [n+1, n*(n+1)]; cached in inference."""
        table = self.route_left if direction == "left" else self.route_right
        if temperature is not None or (torch.is_grad_enabled() and table.requires_grad):
            return one_hot_argmax(table, temperature).reshape(self.width + 1, -1)
        key = (direction, table._version, table.device)
        if self._cache.get(direction, (None,))[0] != key:
            self._cache[direction] = (key, one_hot_argmax(table.detach()).reshape(self.width + 1, -1))
        return self._cache[direction][1]

    def forward(self, x: Tensor, amount: Tensor, direction: str, arithmetic: bool = False,
                temperature=None) -> Tensor:
        """x, amount: bits [B, n]. Returns x shifted by the unsigned amount."""
        B, n = x.shape
        high = heaviside(self.high_pre(amount), temperature)
        query = heaviside(self.decode_pre(torch.cat([amount[:, :self.amount_bits], high[:, None]], 1)),
                          temperature)
        attention = (query @ self.routes(direction, temperature)).view(B, n, n + 1)
        fill = x[:, -1:] if arithmetic else torch.zeros_like(x[:, :1])
        return (attention @ torch.cat([x, fill], 1).unsqueeze(-1)).squeeze(-1)

    sequential_layers = 3
