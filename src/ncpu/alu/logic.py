"""Bitwise logic as single threshold neurons, applied to every bit position.

AND, OR and NOT are linearly separable: one neuron each, two or one inputs,
shared by all positions (a 1x1 convolution over the bit axis). XOR is not
separable, so it takes two layers: the AND neuron, then an output neuron
over (a, b, AND) - the same trick as the adder's sum cell
(a XOR b = [a + b - 2 AND(a, b) >= 1]). The multiplexer (s ? x1 : x0), used
by the divider, is two AND-like neurons whose outputs are exclusive, read
out by their sum.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from ncpu.alu.threshold import heaviside

# The cells and their complete truth tables: name -> (inputs, target function).
CELLS = {
    "and": (2, lambda a, b: a & b),
    "or": (2, lambda a, b: a | b),
    "not": (1, lambda a: 1 - a),
    "xor": (3, lambda a, b, h: a ^ b),  # h = AND(a, b), the hidden neuron
    "mux1": (2, lambda s, x1: s & x1),  # s AND x1
    "mux0": (2, lambda s, x0: (1 - s) & x0),  # NOT s AND x0
}


def cell_rows(name: str) -> list[tuple[int, ...]]:
    """Every input row of a cell (for XOR, rows where h = AND(a, b))."""
    arity = CELLS[name][0]
    if name == "xor":
        return [(a, b, a & b) for a in (0, 1) for b in (0, 1)]
    return [tuple((i >> k) & 1 for k in range(arity)) for i in range(1 << arity)]


class LogicCells(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.ParameterDict({name: nn.Parameter(torch.zeros(arity)) for name, (arity, _) in CELLS.items()})
        self.b = nn.ParameterDict({name: nn.Parameter(torch.zeros(())) for name in CELLS})

    def analytic_(self) -> LogicCells:
        values = {"and": ([1, 1], -1.5), "or": ([1, 1], -0.5), "not": ([-1], 0.5),
                  "xor": ([1, 1, -2], -0.5), "mux1": ([1, 1], -1.5), "mux0": ([-1, 1], -0.5)}
        with torch.no_grad():
            for name, (w, b) in values.items():
                self.w[name].copy_(torch.tensor(w, dtype=torch.float32))
                self.b[name].fill_(b)
        return self

    def pre(self, name: str, *inputs: Tensor) -> Tensor:
        w = self.w[name]
        out = inputs[0] * w[0] + self.b[name]
        for k in range(1, len(inputs)):
            out = out + inputs[k] * w[k]
        return out

    def cell(self, name: str, *inputs: Tensor, temperature=None) -> Tensor:
        return heaviside(self.pre(name, *inputs), temperature)

    def AND(self, a, b, temperature=None):
        return self.cell("and", a, b, temperature=temperature)

    def OR(self, a, b, temperature=None):
        return self.cell("or", a, b, temperature=temperature)

    def NOT(self, a, temperature=None):
        return self.cell("not", a, temperature=temperature)

    def XOR(self, a, b, temperature=None):
        h = self.AND(a, b, temperature)
        return self.cell("xor", a, b, h, temperature=temperature)

    def MUX(self, s, x1, x0, temperature=None):
        """s ? x1 : x0 per bit (s broadcasts)."""
        return self.cell("mux1", s, x1, temperature=temperature) + self.cell("mux0", s, x0, temperature=temperature)

    layers = {"AND": 1, "OR": 1, "NOT": 1, "XOR": 2, "MUX": 1}
