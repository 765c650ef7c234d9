"""The flags as neurons over a result's bits.

Z is a NOR over all n bits. Its weights are tied (one weight for every
bit), so its pre-activation depends only on how many bits are set and its
complete truth table is the n + 1 popcounts. N is one neuron on the top
bit. C and V of a compare come from the adder's carries: C is the carry
out, V = (carry into the top bit) XOR (carry out), through the XOR cell.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from ncpu.alu.threshold import heaviside


class FlagNeurons(nn.Module):
    def __init__(self, width: int = 32):
        super().__init__()
        self.width = width
        self.zero_w = nn.Parameter(torch.zeros(()))  # tied weight on every bit
        self.zero_b = nn.Parameter(torch.zeros(()))
        self.sign_w = nn.Parameter(torch.zeros(()))
        self.sign_b = nn.Parameter(torch.zeros(()))

    def analytic_(self) -> FlagNeurons:
        with torch.no_grad():
            self.zero_w.fill_(-1.0)
            self.zero_b.fill_(0.5)
            self.sign_w.fill_(1.0)
            self.sign_b.fill_(-0.5)
        return self

    def zero_pre(self, bits: Tensor) -> Tensor:
        return bits.sum(-1) * self.zero_w + self.zero_b

    def sign_pre(self, bits: Tensor) -> Tensor:
        return bits[..., -1] * self.sign_w + self.sign_b

    def forward(self, bits: Tensor, temperature=None) -> tuple[Tensor, Tensor]:
        """bits [B, n] -> (z, n) as 0/1 floats [B]."""
        return heaviside(self.zero_pre(bits), temperature), heaviside(self.sign_pre(bits), temperature)

    sequential_layers = 1
