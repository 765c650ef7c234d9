"""The `neural` engine: MUXLEQ's two data operations through the neural ALU.

SUBLEQ's `m[b] - m[a]` is the 16-bit neural adder in subtract mode (the
carry-select threshold circuit of `ncpu.alu.adder`, in its dense layout),
and the jump condition "zero or negative" is its Z and N neurons
(`ncpu.alu.flags`) on the difference. MUX is the multiplexer cell pair of
`ncpu.alu.logic` (`s ? x1 : x0`, one threshold layer), applied to every
bit with the select word m[c & 0x7FFF] as s, m[b] as x1 and m[a] as x0.
The 16-bit circuits are the trained weights that `ncpu verify` enumerates.

Everything else (fetch, classification, I/O, pc) is plumbing: for a batch
it is the tensor step of fast.py; for one machine it is the readable loop
of reference.py itself, each data operation a circuit call on a one-row
tensor (no tensor plumbing per step, as the nCPU neural engine does).
"""

from __future__ import annotations

import torch
from torch import Tensor

from ncpu.alu import NeuralALU, build_alu
from ncpu.alu.dense import DenseALU
from ncpu.muxleq import fast, reference
from ncpu.muxleq.state import MASK, MuxleqBatch, MuxleqState

WIDTH = 16
_CIRCUITS: dict[tuple[str, str], tuple[NeuralALU, DenseALU]] = {}


def circuits(weights: str = "trained", device=None) -> tuple[NeuralALU, DenseALU]:
    """The 16-bit NeuralALU and its dense layout, built once per process."""
    key = (weights, str(torch.device(device) if device is not None else torch.device("cpu")))
    if key not in _CIRCUITS:
        alu = build_alu(WIDTH, weights, device)
        _CIRCUITS[key] = (alu, DenseALU(alu))
    return _CIRCUITS[key]


class NeuralOps(fast.TensorOps):
    """fast.TensorOps with the circuits: int64 [B] of 16-bit values in and out."""

    def __init__(self, weights: str = "trained", device=None):
        self.alu, self.dense = circuits(weights, device)
        self.shifts = torch.arange(WIDTH, device=self.alu.bit_weights.device)
        self.unsigned = (1 << self.shifts).to(torch.float64)  # [16]

    def subtract(self, x: Tensor, y: Tensor) -> tuple[Tensor, Tensor]:
        with torch.inference_mode():
            value_z_n = self.dense.compute_zn("SUB", torch.stack([x, y], 1))  # [B, 3]: value, Z pre, N pre
        jump = (value_z_n[:, 1] > 0) | (value_z_n[:, 2] > 0)
        return value_z_n[:, 0].to(torch.int64) & MASK, jump

    def bits(self, x: Tensor) -> Tensor:
        return ((x[:, None] >> self.shifts) & 1).to(self.alu.dtype)  # [B, 16]

    def mux(self, a: Tensor, b: Tensor, select: Tensor) -> Tensor:
        with torch.inference_mode():
            out = self.alu.logic.MUX(self.bits(select), self.bits(b), self.bits(a))  # [B, 16]
        return (out.to(torch.float64) @ self.unsigned).to(torch.int64)


def data_ops(ops: NeuralOps) -> reference.DataOps:
    """The circuits as the reference loop's `DataOps` (Python ints, one row)."""
    def subtract(x: int, y: int) -> tuple[int, bool]:
        r, jump = ops.subtract(torch.tensor([x]), torch.tensor([y]))
        return int(r), bool(jump)

    def mux(a: int, b: int, select: int) -> int:
        return int(ops.mux(torch.tensor([a]), torch.tensor([b]), torch.tensor([select])))

    return reference.DataOps(subtract, mux)


def run_batch(batch: MuxleqBatch, max_steps: int, device=None, weights: str = "trained") -> MuxleqBatch:
    return fast.run_batch(batch, max_steps, device, ops=NeuralOps(weights, device))


def run(state: MuxleqState, max_steps: int, device=None, weights: str = "trained") -> MuxleqState:
    ops = data_ops(NeuralOps(weights, device))  # built outside inference mode (the adder caches weights)
    with torch.inference_mode():
        return reference.run(state, max_steps, ops)
