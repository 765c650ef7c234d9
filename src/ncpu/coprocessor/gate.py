"""Routing: how much of a token's MLP output the expert replaces.

Both gates see the hidden state x (B, T, C) and one more input: the
expert's flag (B, T) that its scan is writing an answer at that token (a
router that sees only x must tell answer digits from operand digits by
context, which fails at lengths the base model never saw). They return the ALU probability
p (B, T) (soft, for training losses and statistics) and the weights the
layer mixes with, w_mlp and w_alu (B, T):

    sigmoid  p = sigmoid(w.x + b); w_alu = max_gate * p (soft) or
             max_gate * [p > 1/2] (hard); w_mlp = 1 - w_alu
    top1     a two-way router over (MLP, ALU), p = softmax(...)[ALU] capped at
             max_gate. Soft: w = (1 - p, p). Hard: Switch-style top-1, only
             the chosen path runs, scaled by its probability.

`damp` (B, T) in [0, 1] multiplies p first: confidence-aware gating.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

GATES = ("sigmoid", "top1")


class Gate(nn.Module):
    def __init__(self, hidden_size: int, kind: str = "sigmoid", max_gate: float = 1.0):
        super().__init__()
        if kind not in GATES:
            raise ValueError(f"gate must be one of {', '.join(GATES)}, not {kind!r}")
        if not 0.0 < max_gate <= 1.0:
            raise ValueError(f"max_gate must be in (0, 1], not {max_gate}")
        self.kind, self.max_gate = kind, max_gate
        self.proj = nn.Linear(hidden_size + 1, 1 if kind == "sigmoid" else 2)
        # Start closed, except where the expert is answering: a prior that training refines.
        nn.init.zeros_(self.proj.weight)
        nn.init.constant_(self.proj.bias, -4.0 if kind == "sigmoid" else 0.0)
        with torch.no_grad():
            if kind == "sigmoid":
                self.proj.weight[0, -1] = 8.0
            else:
                self.proj.bias[0] = 4.0
                self.proj.weight[1, -1] = 8.0

    def forward(self, x: Tensor, answering: Tensor, damp: Tensor, hard: bool) -> tuple[Tensor, Tensor, Tensor]:
        features = torch.cat([x, answering.unsqueeze(-1).to(x.dtype)], -1)  # (B, T, C + 1)
        logits = self.proj(features)                                         # (B, T, 1 or 2)
        if self.kind == "sigmoid":
            p = torch.sigmoid(logits[..., 0]) * damp
            w_alu = self.max_gate * ((p > 0.5).to(p.dtype) if hard else p)
            return p, 1 - w_alu, w_alu
        p = (logits.softmax(-1)[..., 1] * damp).clamp(max=self.max_gate)
        if not hard:
            return p, 1 - p, p
        chose_alu = (p > 0.5).to(p.dtype)
        return p, (1 - chose_alu) * (1 - p), chose_alu * p
