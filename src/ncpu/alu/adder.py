"""The adder: a carry-select threshold network, three sequential layers.

Why this construction. The carry into bit i is a threshold function of the
lower bits: it fires when sum_{j<i} 2^j (a_j + b_j) + cin >= 2^i. One
threshold layer could compute every carry of a 32-bit add, but its neurons
would need weights up to 2^31 (float64 only; Apple's MPS has no float64) and
each would have a 2^65-entry truth table that nobody can enumerate. So the
n bits are cut into 4 groups of g = n/4 bits (8 at 32 bits) and:

  layer 1  carry cell: inside each group, the carry into every bit for both
           possible carries into the group (cin = 0 and 1). The cell is shared
           by all groups (weight tying, like a convolution with stride g) and
           has 2g+1 inputs: its whole truth table (2^17 rows at 32 bits) is
           enumerated by `ncpu verify`.
  layer 2  select neurons: the true carry into bit j of group k. With
           G_l, P_l the group carry-outs for cin = 0, 1 (so G_l <= P_l), the
           carry into group k is the same threshold form one level up,
           [sum_{l<k} 2^l (G_l + P_l) + cin >= 2^k], and choosing between the
           two in-group carries c0 <= c1 folds into the same neuron:
           carry = [2^k (c0 + c1) + sum_{l<k} 2^l (G_l + P_l) + cin >= 2^(k+1)].
           At most 9 inputs (512 rows), independent of the width.
  layer 3  sum cell: s_i = [a_i + b_i + c_i - 2 c_(i+1) >= 1], the parity of
           (a_i, b_i, c_i) written with the next carry (which is their
           majority), so no separate XOR layer is needed.

Every weight is an integer below 2^9 in the analytic construction, so every
pre-activation is exact in float32. SUB and CMP feed NOT b: since NOT b is
1 - b on bits, it folds into layers 1 and 3 (negated weights, shifted bias)
and subtraction is also three layers.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from ncpu.alu.threshold import heaviside

GROUPS = 4


class CarrySelectAdder(nn.Module):
    def __init__(self, width: int = 32):
        super().__init__()
        if width % GROUPS:
            raise ValueError(f"adder width must be a multiple of {GROUPS}")
        g, m = width // GROUPS, GROUPS
        self.width, self.group_bits, self.groups = width, g, m
        # Layer 1. Row j is the carry into bit j+1 of the group; it may only
        # look at bits 0..j (a causal mask, as in a decoder's attention).
        self.carry_a = nn.Parameter(torch.zeros(g, g))
        self.carry_b = nn.Parameter(torch.zeros(g, g))
        self.carry_cin = nn.Parameter(torch.zeros(g))
        self.carry_bias = nn.Parameter(torch.zeros(g))
        self.register_buffer("carry_mask", torch.tril(torch.ones(g, g)), persistent=False)
        # Layer 2. One neuron per group k, shared by the g bits of the group;
        # it sees the group signals of groups l < k only.
        self.select_c0 = nn.Parameter(torch.zeros(m))
        self.select_c1 = nn.Parameter(torch.zeros(m))
        self.select_g = nn.Parameter(torch.zeros(m, m))
        self.select_p = nn.Parameter(torch.zeros(m, m))
        self.select_cin = nn.Parameter(torch.zeros(m))
        self.select_bias = nn.Parameter(torch.zeros(m))
        self.register_buffer("select_mask", torch.tril(torch.ones(m, m), -1), persistent=False)
        # Layer 3. The sum cell: weights on (a_i, b_i, c_i, c_(i+1)).
        self.sum_w = nn.Parameter(torch.zeros(4))
        self.sum_bias = nn.Parameter(torch.zeros(()))
        self._cache: dict = {}

    # -- weights ------------------------------------------------------------

    def analytic_(self) -> CarrySelectAdder:
        """Set the constructed weights (the formulas in the module docstring)."""
        g, m = self.group_bits, self.groups
        with torch.no_grad():
            powers = 2.0 ** torch.arange(g)
            self.carry_a.copy_(powers.expand(g, g) * self.carry_mask)
            self.carry_b.copy_(self.carry_a)
            self.carry_cin.fill_(1.0)
            self.carry_bias.copy_(-(2.0 ** torch.arange(1, g + 1)) + 0.5)
            group_powers = 2.0 ** torch.arange(m)
            self.select_c0.copy_(group_powers)
            self.select_c1.copy_(group_powers)
            self.select_g.copy_(group_powers.expand(m, m) * self.select_mask)
            self.select_p.copy_(self.select_g)
            self.select_cin.fill_(1.0)
            self.select_bias.copy_(-(2.0 ** torch.arange(1, m + 1)) + 0.5)
            self.sum_w.copy_(torch.tensor([1.0, 1.0, 1.0, -2.0]))
            self.sum_bias.fill_(-0.5)
        return self

    def _weights(self, invert_b: bool) -> dict[str, Tensor]:
        """Effective (masked, NOT-folded) weights. Cached while no parameter
        changes (`_version` counts in-place updates) and no gradient is needed."""
        key = (invert_b, tuple(p._version for p in self.parameters()))
        grad = torch.is_grad_enabled() and any(p.requires_grad for p in self.parameters())
        if not grad and self._cache.get(invert_b, (None,))[0] == key:
            return self._cache[invert_b][1]
        wa = self.carry_a * self.carry_mask
        wb = self.carry_b * self.carry_mask
        bias1 = self.carry_bias
        sw = self.sum_w
        bias3 = self.sum_bias
        if invert_b:  # w * (1 - b) = -w * b + w
            bias1 = bias1 + wb.sum(-1)
            wb = -wb
            bias3 = bias3 + sw[1]
            sw = sw * torch.tensor([1.0, -1.0, 1.0, 1.0], device=sw.device)
        w = {
            "w1": torch.cat([wa, wb], 1).t(),  # [2g, g]
            "bias1": torch.stack([bias1, bias1 + self.carry_cin]),  # [2 (cin), g]
            "w2": torch.cat([self.select_g * self.select_mask, self.select_p * self.select_mask,
                             self.select_cin[:, None]], 1).t(),  # [2m+1, m]
            "u0": self.select_c0[:, None], "u1": self.select_c1[:, None],
            "bias2": self.select_bias,
            "w3": sw, "bias3": bias3,
        }
        if not grad:
            w = {k: v.detach() for k, v in w.items()}
            self._cache[invert_b] = (key, w)
        return w

    # -- the three layers -----------------------------------------------------

    def carry_layer(self, a: Tensor, b: Tensor, w: dict, temperature=None) -> tuple[Tensor, Tensor]:
        """a, b [B, n] -> (pre-activations, carries) [B, m, 2, g]: carry into
        bit j+1 of each group for cin = 0 (index 0) and cin = 1 (index 1)."""
        B = a.shape[0]
        x = torch.cat([a.view(B, self.groups, self.group_bits), b.view(B, self.groups, self.group_bits)], -1)
        pre = (x @ w["w1"]).unsqueeze(2) + w["bias1"]
        return pre, heaviside(pre, temperature)

    def select_layer(self, c01: Tensor, cin: Tensor, w: dict, temperature=None) -> tuple[Tensor, Tensor]:
        """carries for cin=0/1 [B, m, 2, g], cin [B] -> (pre, carry into bits 1..n) [B, m, g]."""
        gp = c01[:, :, :, -1]  # [B, m, 2]: G_l, P_l
        z = torch.cat([gp[:, :, 0], gp[:, :, 1], cin[:, None]], 1)  # [B, 2m+1]
        group = z @ w["w2"] + w["bias2"]  # [B, m]
        pre = c01[:, :, 0] * w["u0"] + c01[:, :, 1] * w["u1"] + group[:, :, None]
        return pre, heaviside(pre, temperature)

    def sum_layer(self, a: Tensor, b: Tensor, c_in: Tensor, c_out: Tensor, w: dict,
                  temperature=None) -> tuple[Tensor, Tensor]:
        """Per bit: (a_i, b_i, carry into i, carry out of i) -> (pre, sum bit)."""
        w3 = w["w3"]
        pre = a * w3[0] + b * w3[1] + c_in * w3[2] + c_out * w3[3] + w["bias3"]
        return pre, heaviside(pre, temperature)

    def forward(self, a: Tensor, b: Tensor, cin: Tensor | float = 0.0, invert_b: bool = False,
                temperature: float | None = None) -> tuple[Tensor, Tensor]:
        """a + b + cin (or a + NOT b + cin) on bits [B, n].

        Returns (sum bits [B, n], carries [B, n+1]), carries[:, i] being the
        carry into bit i (carries[:, n] is the carry out)."""
        B = a.shape[0]
        if not torch.is_tensor(cin) or cin.dim() == 0:
            cin = torch.full((B,), float(cin), dtype=a.dtype, device=a.device)
        w = self._weights(invert_b)
        _, c01 = self.carry_layer(a, b, w, temperature)
        _, carry = self.select_layer(c01, cin, w, temperature)
        carries = torch.cat([cin[:, None], carry.reshape(B, self.width)], 1)
        _, s = self.sum_layer(a, b, carries[:, :-1], carries[:, 1:], w, temperature)
        return s, carries

    sequential_layers = 3
