"""The `neural` engine: every ALU operation and every flag computed by the
neural circuits of `ncpu.alu`, in their dense layout (`ncpu.alu.dense`).

Batches (B > 1) run on the `fast` tensor engine: `NeuralTensorALU`
implements its `TensorALU` contract with the circuits, nothing of the
engine is copied. A single machine (B = 1) runs on `run_single`: the same
per-kind plumbing (program table, pc, branches, memory, sp) in plain Python
integers, with each ALU operation a call of the circuits on a one-row
tensor. At B = 1 the tensor engine's ~40 torch calls per step of plumbing
cost more than the circuits themselves; here an instruction costs one
circuit call (result, then Z and N neurons on its bits, in one go).
"""

from __future__ import annotations

import torch
from torch import Tensor

from ncpu.alu import NeuralALU, build_alu
from ncpu.alu.dense import DenseALU
from ncpu.machine import fast
from ncpu.machine.decoded import DecodedProgram, decode_words
from ncpu.machine.fast import (A_REG, B_CONST, B_IS_REG, COND, IMM, KIND, KINDS, RD, B_REG,
                               TensorProgram)
from ncpu.machine.state import BatchState, MachineState
from ncpu.machine.tensor_alu import OPS, TensorALU

_ALUS: dict[tuple[str, str], NeuralALU] = {}
_DENSE: dict[tuple[str, str], DenseALU] = {}


def _key(weights: str, device) -> tuple[str, str]:
    return weights, str(torch.device(device) if device is not None else torch.device("cpu"))


def neural_alu(weights: str = "trained", device: torch.device | str | None = None) -> NeuralALU:
    """The 32-bit NeuralALU (cell form) for `weights` on `device`, built once per process."""
    key = _key(weights, device)
    if key not in _ALUS:
        _ALUS[key] = build_alu(32, weights, device)
    return _ALUS[key]


def dense_alu(weights: str = "trained", device: torch.device | str | None = None) -> DenseALU:
    """The dense layout of `neural_alu(weights, device)`, built once per process."""
    key = _key(weights, device)
    if key not in _DENSE:
        _DENSE[key] = DenseALU(neural_alu(weights, device))
    return _DENSE[key]


class NeuralTensorALU(TensorALU):
    """TensorALU whose results and flags come from the neural circuits."""

    def __init__(self, weights: str = "trained", device: torch.device | str | None = None):
        self.dense = dense_alu(weights, device)
        self.alu = self.dense.alu

    def compute(self, op: str, a: Tensor, b: Tensor | None) -> Tensor:
        if op not in OPS:
            raise ValueError(f"unknown ALU op {op!r}; expected one of {', '.join(OPS)}")
        with torch.inference_mode():
            return self.dense.compute(op, a, b)

    def compare(self, a: Tensor, b: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        with torch.inference_mode():
            return self.dense.compare(a, b)

    def zero_negative(self, value: Tensor) -> tuple[Tensor, Tensor]:
        with torch.inference_mode():
            return self.dense.zero_negative(value)


# -- one machine ----------------------------------------------------------------

def run_single(program: DecodedProgram, state: MachineState, max_steps: int, dense: DenseALU) -> MachineState:
    """One machine, plumbing in Python, arithmetic and flags in the circuits.
    Same kinds and operand rules as `fast.step` (the program table is built
    by the same `TensorProgram.from_decoded`)."""
    table = TensorProgram.from_decoded(program).table.tolist()
    s = state.copy()
    regs, mem = [int(r) for r in s.registers], [int(m) for m in s.memory]
    size, length = len(mem), len(table)
    n, z, c, v = bool(s.n), bool(s.z), bool(s.c), bool(s.v)
    pc, sp, steps = int(s.pc), int(s.sp), int(s.steps)
    budget = steps + min(max(max_steps, 0), 1 << 62)
    halted = bool(s.halted)
    n_ops = len(OPS)
    as_pair = torch.tensor
    compute_zn, zn_pre = dense.compute_zn, dense.zero_negative_pre

    def alu(op: str, a: int, b: int) -> tuple[int, bool, bool]:
        value, zp, np_ = compute_zn(op, as_pair([[a, b]]))[0].tolist()
        return int(value), zp > 0, np_ > 0  # the Z and N neurons' thresholds

    def flags_of(value: int) -> tuple[bool, bool]:
        zp, np_ = zn_pre(as_pair([value]))[0].tolist()
        return zp > 0, np_ > 0

    with torch.inference_mode():
        while not halted:
            if not 0 <= pc < length:
                halted = True
                break
            if steps >= budget:
                break
            row = table[pc]
            kind = row[KIND]
            name = KINDS[kind]
            nxt = pc + 1
            steps += 1
            if kind < n_ops or name in ("CMP", "MOV"):
                a = regs[row[A_REG]]
                b = regs[row[B_REG]] if row[B_IS_REG] else row[B_CONST]
                if name == "CMP":
                    n, z, c, v = (f > 0.5 for f in dense.compare_flags(as_pair([[a, b]]))[0].tolist())
                elif name == "MOV":
                    regs[row[RD]] = b
                    z, n = flags_of(b)
                else:
                    regs[row[RD]], z, n = alu(name, a, b)
            elif name == "MOVT":
                high = alu("SHL", row[IMM], 16)[0]
                low = alu("AND", regs[row[A_REG]], 0xFFFF)[0]
                regs[row[RD]], z, n = alu("OR", high, low)
            elif name == "LOAD":
                value = mem[(regs[row[A_REG]] + row[IMM]) % size]
                regs[row[RD]] = value
                z, n = flags_of(value)
            elif name == "STORE":
                mem[(regs[row[A_REG]] + row[IMM]) % size] = regs[row[B_REG]]
            elif name in ("PUSH", "CALL"):
                sp = (sp - 1) % size
                mem[sp] = regs[row[A_REG]] if name == "PUSH" else pc + 1
                if name == "CALL":
                    nxt = row[IMM]
            elif name in ("POP", "RET"):
                sp %= size
                value = mem[sp]
                sp = (sp + 1) % size
                if name == "POP":
                    regs[row[RD]] = value
                    z, n = flags_of(value)
                else:
                    nxt = value
            elif name == "JUMP":
                if (row[COND] >> (8 * n + 4 * z + 2 * c + v)) & 1:
                    nxt = row[IMM]
            elif name == "HALT":
                halted = True
                nxt = pc
            pc = nxt
    s.registers[:] = regs
    s.memory[:] = mem
    s.n, s.z, s.c, s.v = n, z, c, v
    s.pc, s.sp, s.steps, s.halted = pc, sp, steps, halted
    return s


def run_batch(words, batch: BatchState, max_steps: int, device: torch.device | str | None = None,
              weights: str = "trained") -> BatchState:
    with torch.inference_mode():
        return fast.run_batch(words, batch, max_steps, device, alu=NeuralTensorALU(weights, device))


def run(words, state: MachineState, max_steps: int, device: torch.device | str | None = None,
        weights: str = "trained") -> MachineState:
    program = words if isinstance(words, DecodedProgram) else decode_words(words)
    return run_single(program, state, max_steps, dense_alu(weights, device))


__all__ = ["NeuralTensorALU", "dense_alu", "neural_alu", "run", "run_batch", "run_single"]
