"""The `neural` engine: every ALU operation and every flag computed by the
neural circuits of `ncpu.alu`, in their dense layout (`ncpu.alu.dense`).

Batches (B > 1) run on the `fast` tensor engine: `NeuralTensorALU`
implements its `TensorALU` contract with the circuits, nothing of the
engine is copied. A single machine (B = 1) runs on `run_single`: the same
per-kind plumbing (program table, pc, branches, memory, sp) in plain Python,
registers held as bits, each ALU operation the one-row form of the same
dense circuits (`ncpu.alu.single.BitCircuits`, numpy: at one row torch's
per-call cost is the whole cost). An instruction is the circuit on its
operands' bits; Z and N are the flag neurons on the last value written,
evaluated when a conditional branch reads them.
"""

from __future__ import annotations

import torch
from torch import Tensor

from ncpu.alu import NeuralALU, build_alu
from ncpu.alu.alu import UNARY_OPS, VALUE_OPS
from ncpu.alu.dense import DenseALU
from ncpu.alu.single import BitCircuits
from ncpu.machine import fast
from ncpu.machine.decoded import DecodedProgram, decode_words
from ncpu.machine.fast import A_REG, B_CONST, B_IS_REG, B_REG, COND, IMM, KIND, KINDS, RD, TensorProgram
from ncpu.machine.state import BatchState, MachineState
from ncpu.machine.tensor_alu import OPS, TensorALU

# Two-operand ops whose circuits read and write bits (the rest end in value read-outs).
BIT_BINARY = frozenset(("ADD", "SUB", "AND", "OR", "XOR", "SHL", "SHR", "SAR"))

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

_CIRCUITS: dict[tuple[str, str], BitCircuits] = {}


def bit_circuits(weights: str = "trained", device: torch.device | str | None = None) -> BitCircuits:
    """The one-row (numpy) form of `dense_alu(weights, device)`, built once per process."""
    key = _key(weights, device)
    if key not in _CIRCUITS:
        _CIRCUITS[key] = BitCircuits(dense_alu(weights, device))
    return _CIRCUITS[key]


def run_single(program: DecodedProgram, state: MachineState, max_steps: int, circuits: BitCircuits) -> MachineState:
    """One machine whose registers are held as bits, the circuits' own input
    and output: an ALU instruction is the circuit on its operands' bits, its
    result bits written back, no encoding or decoding in between. Integers
    appear only where plumbing needs them (memory, addresses, sp, the final
    state) through `encode`/`decode`. Z and N are the flag neurons on the
    last written value, evaluated when a conditional branch (or the end of
    the run) reads them. Same kinds and operand rules as `fast.step` (the
    program table is built by the same `TensorProgram.from_decoded`)."""
    enc, dec = circuits.encode, circuits.decode
    binary, unary, zero_negative = circuits.binary, circuits.unary, circuits.zero_negative
    rows = []  # (kind name, a_reg, b_reg or -1 when b is the constant, the constant as bits,
    #             STORE's source register, rd, imm, cond, the circuit of a bit-level binary op)
    for row in TensorProgram.from_decoded(program).table.tolist():
        name = KINDS[row[KIND]]
        rows.append((name, row[A_REG], row[B_REG] if row[B_IS_REG] else -1, enc(row[B_CONST]), row[B_REG],
                     row[RD], row[IMM], row[COND], circuits.binary_fn(name) if name in BIT_BINARY else None))
    s = state.copy()
    regs = [enc(int(r)) for r in s.registers]  # bits [n] each
    ints: list[int | None] = [int(r) for r in s.registers]  # their values, None until decoded again
    mem = [int(m) for m in s.memory]
    size, length = len(mem), len(rows)
    n, z, c, v = bool(s.n), bool(s.z), bool(s.c), bool(s.v)
    pending = None  # bits whose Z/N neurons are still to be evaluated
    pc, sp, steps = int(s.pc), int(s.sp), int(s.steps)
    budget = steps + min(max(max_steps, 0), 1 << 62)
    halted = bool(s.halted)
    trapped = bool(s.trapped)
    bits16, mask16 = enc(16), enc(0xFFFF)
    always = (1 << 16) - 1  # the condition mask of JMP

    def value(r: int) -> int:
        if ints[r] is None:
            ints[r] = dec(regs[r])
        return ints[r]

    def write(r: int, bits, known: int | None = None) -> None:
        regs[r] = bits
        ints[r] = known

    while not halted and not trapped:
        if not 0 <= pc < length:
            halted = True
            break
        if steps >= budget:
            break
        name, a_reg, b_reg, b_bits, source, rd, imm, cond, circuit = rows[pc]
        if name == "SYS":  # trap before executing: pc stays, no step counted
            trapped = True
            break
        nxt = pc + 1
        steps += 1
        if name == "JUMP":
            if cond != always:
                if pending is not None:
                    z, n = zero_negative(pending)
                    pending = None
                if (cond >> (8 * n + 4 * z + 2 * c + v)) & 1:
                    nxt = imm
            else:
                nxt = imm
        elif circuit is not None:  # ADD SUB AND OR XOR SHL SHR SAR
            pending = regs[rd] = circuit(regs[a_reg], regs[b_reg] if b_reg >= 0 else b_bits)
            ints[rd] = None
        elif name == "CMP":
            n, z, c, v = circuits.compare(regs[a_reg], regs[b_reg] if b_reg >= 0 else b_bits)
            pending = None
        elif name == "MOV":
            pending = regs[b_reg] if b_reg >= 0 else b_bits
            write(rd, pending, ints[b_reg] if b_reg >= 0 else None)
        elif name in UNARY_OPS:
            pending = unary(name, regs[a_reg])
            write(rd, pending)
        elif name in VALUE_OPS:
            b_value = value(b_reg) if b_reg >= 0 else dec(b_bits)
            result, z, n = circuits.value_zn(name, value(a_reg), b_value)
            write(rd, enc(result), result)
            pending = None
        elif name == "MOVT":
            high = binary("SHL", enc(imm), bits16)
            pending = binary("OR", high, binary("AND", regs[a_reg], mask16))
            write(rd, pending)
        elif name == "LOAD":
            loaded = mem[(value(a_reg) + imm) % size]
            pending = enc(loaded)
            write(rd, pending, loaded)
        elif name == "STORE":
            mem[(value(a_reg) + imm) % size] = value(source)
        elif name in ("PUSH", "CALL"):
            sp = (sp - 1) % size
            mem[sp] = value(a_reg) if name == "PUSH" else pc + 1
            if name == "CALL":
                nxt = imm
        elif name in ("POP", "RET"):
            sp %= size
            popped = mem[sp]
            sp = (sp + 1) % size
            if name == "POP":
                pending = enc(popped)
                write(rd, pending, popped)
            else:
                nxt = popped
        elif name == "HALT":
            halted = True
            nxt = pc
        pc = nxt
    if pending is not None:
        z, n = zero_negative(pending)
    s.registers[:] = [value(r) for r in range(len(regs))]
    s.memory[:] = mem
    s.n, s.z, s.c, s.v = n, z, c, v
    s.pc, s.sp, s.steps, s.halted, s.trapped = pc, sp, steps, halted, trapped
    return s


def run_batch(words, batch: BatchState, max_steps: int, device: torch.device | str | None = None,
              weights: str = "trained") -> BatchState:
    with torch.inference_mode():
        return fast.run_batch(words, batch, max_steps, device, alu=NeuralTensorALU(weights, device))


def run(words, state: MachineState, max_steps: int, device: torch.device | str | None = None,
        weights: str = "trained") -> MachineState:
    program = words if isinstance(words, DecodedProgram) else decode_words(words)
    return run_single(program, state, max_steps, bit_circuits(weights, device))


def warm_up(weights: str = "trained", device: torch.device | str | None = None) -> None:
    """Build the circuits (load the weights, lay them out dense and one-row)
    and make every first call once, so that a caller can time start-up apart
    from running."""
    from ncpu.machine.decoded import CODE

    words = [CODE["MUL"] << 24, CODE["DIV"] << 24, CODE["ADD"] << 24, CODE["HALT"] << 24]
    run(words, MachineState(), 4, device, weights)
    with torch.inference_mode():
        dense_alu(weights, device).compute("ADD", torch.zeros(2, dtype=torch.int64, device=device),
                                           torch.zeros(2, dtype=torch.int64, device=device))


__all__ = ["NeuralTensorALU", "bit_circuits", "dense_alu", "neural_alu", "run", "run_batch", "run_single", "warm_up"]
