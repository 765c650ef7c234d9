"""The complete truth table of every trained cell: the specification both
training (`train.py`) and verification (`verify.py`) read.

Each function returns (inputs, targets) as float tensors over every input
row of the cell; a cell's `pre`-activation function maps inputs to one
column per neuron.
"""

from __future__ import annotations

import torch
from torch import Tensor

from ncpu.alu.logic import CELLS, cell_rows
from ncpu.alu.multiplier import product_targets
from ncpu.alu.shifter import decoder_rows, route_targets


def all_bit_rows(k: int) -> Tensor:
    """Every k-bit row, LSB first: [2^k, k] floats."""
    idx = torch.arange(1 << k)
    return ((idx[:, None] >> torch.arange(k)) & 1).float()


def carry_cell(group_bits: int) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """(a [N, g], b [N, g], cin [N], targets [N, g]): carry into bit j+1 of a
    g-bit group for every (a, b, cin) - 2^(2g+1) rows."""
    g = group_bits
    rows = all_bit_rows(2 * g + 1)
    a, b, cin = rows[:, :g], rows[:, g:2 * g], rows[:, 2 * g]
    powers = 2.0 ** torch.arange(g)
    prefix = torch.cumsum((a + b) * powers, 1) + cin[:, None]  # sum over bits 0..j
    targets = (prefix >= 2.0 ** torch.arange(1, g + 1)).float()
    return a, b, cin, targets


def select_neurons(groups: int = 4) -> tuple[Tensor, Tensor]:
    """Inputs (c0, c1, G_0..G_{m-2}, P_0..P_{m-2}, cin) [N, 2m+1] and the
    target of every select neuron k [N, m]; neuron k ignores groups l >= k,
    so each sees its complete table (with repeats)."""
    m = groups
    rows = all_bit_rows(2 * (m - 1) + 3)
    c0, c1 = rows[:, 0], rows[:, 1]
    G, P = rows[:, 2:m + 1], rows[:, m + 1:2 * m]
    cin = rows[:, 2 * m]
    targets = []
    for k in range(m):
        total = 2.0 ** k * (c0 + c1) + cin
        for l in range(k):
            total = total + 2.0 ** l * (G[:, l] + P[:, l])
        targets.append((total >= 2.0 ** (k + 1)).float())
    return rows, torch.stack(targets, 1)


def sum_cell() -> tuple[Tensor, Tensor]:
    """(a, b, c, carry out = majority) -> a XOR b XOR c: the 8 rows the adder can reach."""
    abc = all_bit_rows(3)
    carry_out = (abc.sum(1) >= 2).float()
    return torch.cat([abc, carry_out[:, None]], 1), (abc.sum(1) % 2)


def logic_cell(name: str) -> tuple[Tensor, Tensor]:
    rows = cell_rows(name)
    fn = CELLS[name][1]
    return torch.tensor(rows, dtype=torch.float32), torch.tensor([fn(*r) for r in rows], dtype=torch.float32)


def popcount_rows(k: int) -> Tensor:
    return torch.arange(k + 1, dtype=torch.float32)


__all__ = ["all_bit_rows", "carry_cell", "select_neurons", "sum_cell", "logic_cell", "popcount_rows",
           "product_targets", "decoder_rows", "route_targets"]
