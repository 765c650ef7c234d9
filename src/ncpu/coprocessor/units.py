"""Arithmetic units that can sit in the expert's slot.

Both take the operands as int64 [E] and return every operation's result
as int64 [E, len(OPS)], so the expert can pick (hard mode) or mix (soft
mode) by its op read-out.

    ALUUnit   the project's neural ALU (`ncpu.alu`), exact on 32-bit words
    NALUUnit  a NALU-style learned head (Trask et al. 2018, "Neural
              Arithmetic Logic Units"): one cell per op, trained here by
              regression on training-range operands; it extrapolates only
              approximately, which is the comparison's point
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from ncpu.coprocessor.symbols import OPS

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


class ALUUnit(nn.Module):
    """The neural ALU. It is kept out of this module's parameters and state
    dict (its weights ship with `ncpu.alu`) and follows the operands' device."""

    def __init__(self, source: str = "trained"):
        super().__init__()
        from ncpu.alu import build_alu

        self._alu = [build_alu(32, source)]  # a list: not a registered submodule

    @property
    def alu(self):
        return self._alu[0]

    def forward(self, a: Tensor, b: Tensor) -> Tensor:  # (E,), (E,) -> (E, n_ops)
        alu = self.alu
        if alu.bit_weights.device != a.device:
            self._alu[0] = alu = alu.to(a.device)
        a, b = a.clamp(INT32_MIN, INT32_MAX), b.clamp(INT32_MIN, INT32_MAX)
        results = []
        for op in OPS:
            if op in ("LT", "GT"):
                x, y = (a, b) if op == "LT" else (b, a)
                negative, _, _, overflow = alu.compare(x, y)
                results.append((negative != overflow).long())
            else:
                results.append(alu.compute(op, a, b))
        return torch.stack(results, -1)


class NALUCell(nn.Module):
    """y = g * (W [a, b]) + (1 - g) * exp(W log(|[a, b]| + eps)), W = tanh(W^) * sigmoid(M^), g = sigmoid(G)."""

    def __init__(self):
        super().__init__()
        self.w_hat = nn.Parameter(torch.randn(2) * 0.1)
        self.m_hat = nn.Parameter(torch.randn(2) * 0.1)
        self.gate = nn.Parameter(torch.zeros(()))  # one cell per op: an input-independent gate

    def forward(self, x: Tensor) -> Tensor:  # (E, 2) float64 -> (E,)
        w = torch.tanh(self.w_hat) * torch.sigmoid(self.m_hat)
        w = w.to(x.dtype)
        add = x @ w
        mul = torch.exp(torch.log(x.abs() + 1e-7) @ w)
        g = torch.sigmoid(self.gate).to(x.dtype)
        return g * add + (1 - g) * mul


class NALUUnit(nn.Module):
    def __init__(self):
        super().__init__()
        self.cells = nn.ModuleList(NALUCell() for _ in OPS)

    def values(self, a: Tensor, b: Tensor) -> Tensor:  # -> float64 (E, n_ops), differentiable
        x = torch.stack([a, b], -1).to(torch.float64)
        return torch.stack([cell(x) for cell in self.cells], -1)

    def forward(self, a: Tensor, b: Tensor) -> Tensor:  # -> int64 (E, n_ops)
        values = self.values(a, b).detach()
        values = torch.nan_to_num(values, nan=0.0, posinf=INT32_MAX, neginf=INT32_MIN)
        return values.round().clamp(INT32_MIN, INT32_MAX).to(torch.int64)
