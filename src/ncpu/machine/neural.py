"""The `neural` engine: the `fast` tensor engine with every ALU operation and
every flag computed by the neural circuits of `ncpu.alu`.

Nothing of the engine is copied: `NeuralTensorALU` implements the
`TensorALU` contract with `ncpu.alu.NeuralALU` (32-bit, trained weights by
default, or the analytic construction), and `run`/`run_batch` hand it to
`ncpu.machine.fast`.
"""

from __future__ import annotations

import torch
from torch import Tensor

from ncpu.alu import NeuralALU, build_alu
from ncpu.machine import fast
from ncpu.machine.state import BatchState, MachineState
from ncpu.machine.tensor_alu import OPS, TensorALU

_ALUS: dict[tuple[str, str], NeuralALU] = {}


def neural_alu(weights: str = "trained", device: torch.device | str | None = None) -> NeuralALU:
    """The 32-bit NeuralALU for `weights` on `device`, built once per process."""
    key = (weights, str(torch.device(device) if device is not None else torch.device("cpu")))
    if key not in _ALUS:
        _ALUS[key] = build_alu(32, weights, device)
    return _ALUS[key]


class NeuralTensorALU(TensorALU):
    """TensorALU whose results and flags come from the neural circuits."""

    def __init__(self, weights: str = "trained", device: torch.device | str | None = None):
        self.alu = neural_alu(weights, device)

    def compute(self, op: str, a: Tensor, b: Tensor | None) -> Tensor:
        if op not in OPS:
            raise ValueError(f"unknown ALU op {op!r}; expected one of {', '.join(OPS)}")
        with torch.no_grad():
            return self.alu.compute(op, a, b)

    def compare(self, a: Tensor, b: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        with torch.no_grad():
            return self.alu.compare(a, b)

    def zero_negative(self, value: Tensor) -> tuple[Tensor, Tensor]:
        with torch.no_grad():
            return self.alu.zero_negative(value)


def run_batch(words, batch: BatchState, max_steps: int, device: torch.device | str | None = None,
              weights: str = "trained") -> BatchState:
    return fast.run_batch(words, batch, max_steps, device, alu=NeuralTensorALU(weights, device))


def run(words, state: MachineState, max_steps: int, device: torch.device | str | None = None,
        weights: str = "trained") -> MachineState:
    return run_batch(words, BatchState.stack([state]), max_steps, device, weights).machine(0)


__all__ = ["NeuralTensorALU", "neural_alu", "run", "run_batch"]
