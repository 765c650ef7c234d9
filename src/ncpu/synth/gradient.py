"""The differentiable executor: a program of L slots as continuous parameters.

Each slot holds logits over opcodes, over its destination register, over its
first source register and over its second source (a register or a constant).
The machine state is soft: every register is 32 bit-probabilities per
example. One slot reads its operands by attention (a mixture of registers),
applies every allowed operation, mixes the results by the opcode
distribution and writes the mixture by the destination distribution.

The operations keep the machine's exact semantics on the forward pass: each
op runs on the rounded operands through `vecops` (the same definitions the
engines are tested against), and gradients flow through a soft bit-level
circuit of the same op (straight-through): AND/OR/XOR/NOT as products, ADD,
SUB and NEG as a soft ripple-carry adder. MUL, DIV, MOD and shifts by a
register pass no gradient to their operands, only to their own choice.

K random restarts run as one batch. Choices are Gumbel-softmax samples whose
temperature anneals from soft to nearly one-hot; every few steps each
restart's argmax program is decoded and checked exactly.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np
import torch

from ncpu.synth import vecops
from ncpu.synth.enumerative import allowed_ops, constants_for
from ncpu.synth.program import Step, lower, prune, run_steps
from ncpu.synth.spec import Spec
from ncpu.synth.verify import initial_batch

_SHIFTS = torch.arange(32, dtype=torch.int64)


def to_bits(values: np.ndarray) -> torch.Tensor:
    v = torch.as_tensor(np.asarray(values, np.int64) & 0xFFFFFFFF)
    return ((v[..., None] >> _SHIFTS) & 1).float()


def from_bits(bits: torch.Tensor) -> np.ndarray:
    v = ((bits.detach() > 0.5).long() << _SHIFTS).sum(-1).numpy()
    return vecops.wrap(v)


def _soft_add(a: torch.Tensor, b: torch.Tensor, carry: float = 0.0) -> torch.Tensor:
    """Ripple-carry adder on bit probabilities (independent-bit relaxation)."""
    c = torch.full_like(a[..., 0], carry)
    out = []
    for i in range(32):
        x, y = a[..., i], b[..., i]
        out.append(x + y + c - 2 * (x * y + y * c + x * c) + 4 * x * y * c)
        c = x * y + y * c + x * c - 2 * x * y * c
    return torch.stack(out, -1)


def _surrogate(op: str, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor | None:
    if op == "AND":
        return a * b
    if op == "OR":
        return a + b - a * b
    if op == "XOR":
        return a + b - 2 * a * b
    if op == "NOT":
        return 1 - a
    if op == "ADD":
        return _soft_add(a, b)
    if op == "SUB":
        return _soft_add(a, 1 - b, 1.0)
    if op == "NEG":
        return _soft_add(torch.zeros_like(a), 1 - a, 1.0)
    return None


def _apply(op: str, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Exact op on rounded operands, with the surrogate's gradient."""
    av, bv = from_bits(a), from_bits(b)
    exact = to_bits(vecops.UNARY[op](av) if op in vecops.UNARY else vecops.BINARY[op](av, bv))
    sur = _surrogate(op, a, b)
    return exact if sur is None else exact + (sur - sur.detach())


def _all_ops(ops: list[str], a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Every op on the same soft operands; the three adders share one
    ripple-carry pass (it is the slow part: 32 sequential bit steps)."""
    adders = [op for op in ops if op in ("ADD", "SUB", "NEG")]
    sums = {}
    if adders:
        lhs = {"ADD": a, "SUB": a, "NEG": torch.zeros_like(a)}
        rhs = {"ADD": b, "SUB": 1 - b, "NEG": 1 - a}
        carry = torch.tensor([0.0 if op == "ADD" else 1.0 for op in adders]).view(-1, *([1] * a.dim()))
        x = torch.stack([lhs[op] for op in adders])
        y = torch.stack([rhs[op] for op in adders])
        c = carry.expand(*x.shape[:-1], 1)[..., 0]
        out = []
        for i in range(32):
            xi, yi = x[..., i], y[..., i]
            out.append(xi + yi + c - 2 * (xi * yi + yi * c + xi * c) + 4 * xi * yi * c)
            c = xi * yi + yi * c + xi * c - 2 * xi * yi * c
        sums = dict(zip(adders, torch.stack(out, -1)))
    av, bv = from_bits(a), from_bits(b)
    results = []
    for op in ops:
        exact = to_bits(vecops.UNARY[op](av) if op in vecops.UNARY else vecops.BINARY[op](av, bv))
        sur = sums.get(op)
        if sur is None and op not in ("ADD", "SUB", "NEG"):
            sur = _surrogate(op, a, b)
        results.append(exact if sur is None else exact + (sur - sur.detach()))
    return torch.stack(results, 1)


class SoftProgram(torch.nn.Module):
    """K restarts x L slots of logits."""

    def __init__(self, k: int, length: int, n_ops: int, n_regs: int, n_consts: int, generator: torch.Generator):
        super().__init__()

        def logits(*shape):
            return torch.nn.Parameter(0.1 * torch.randn(*shape, generator=generator))

        self.op = logits(k, length, n_ops)
        self.rd = logits(k, length, n_regs)
        self.ra = logits(k, length, n_regs)
        self.rb = logits(k, length, n_regs + n_consts)

    def sample(self, tau: float, hard: bool):
        return [torch.nn.functional.gumbel_softmax(p, tau=tau, hard=hard) for p in (self.op, self.rd, self.ra, self.rb)]


def execute(choices, ops: list[str], start: torch.Tensor, consts: torch.Tensor) -> torch.Tensor:
    """Soft run. start [R, E, 32] bits; consts [C, E, 32]; returns [K, R, E, 32]."""
    op_w, rd_w, ra_w, rb_w = choices
    k, length = op_w.shape[:2]
    regs = start.expand(k, *start.shape)
    for t in range(length):
        a = torch.einsum("kr,kreb->keb", ra_w[:, t], regs)
        sources = torch.cat([regs, consts.expand(k, *consts.shape)], 1)
        b = torch.einsum("kr,kreb->keb", rb_w[:, t], sources)
        results = _all_ops(ops, a, b)  # [K, O, E, 32]
        value = torch.einsum("ko,koeb->keb", op_w[:, t], results)
        write = rd_w[:, t][:, :, None, None]
        regs = (1 - write) * regs + write * value[:, None]
    return regs


def search(spec: Spec, deadline: float, seed: int = 0, restarts: int = 32, iterations: int = 250,
           lengths: tuple[int, ...] = (1, 2, 3, 4)) -> Iterator[list[str]]:
    if spec.uses_memory or not spec.outputs:
        return
    binary, unary = allowed_ops(spec)
    ops = binary + unary
    registers = list(dict.fromkeys(spec.inputs + spec.outputs))
    registers += [r for r in range(8) if r not in registers][: max(0, 4 - len(registers))]
    constants = constants_for(spec)
    regs0 = initial_batch(spec).registers.T.astype(np.int64)  # [8, E]
    start = to_bits(regs0[registers])  # [R, E, 32]
    E = regs0.shape[1]
    consts = to_bits(np.repeat(np.array(constants, np.int64)[:, None], E, 1))
    out_index = [registers.index(r) for r in spec.outputs]
    target = to_bits(np.array([e.outputs for e in spec.examples], np.int64).T)  # [outs, E, 32]
    wanted = np.array([e.outputs for e in spec.examples], np.int64).T
    generator = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    tried: set = set()
    round_index = 0
    while time.monotonic() < deadline:
        length = lengths[min(round_index, len(lengths) - 1)] if round_index < len(lengths) else lengths[round_index % len(lengths)]
        round_index += 1
        model = SoftProgram(restarts, length, len(ops), len(registers), len(constants), generator)
        optimiser = torch.optim.Adam(model.parameters(), lr=0.2)
        for it in range(iterations):
            if time.monotonic() > deadline:
                return
            tau = 2.0 * (0.05 / 2.0) ** (it / iterations)  # anneal 2 -> 0.05
            choices = model.sample(tau, hard=it > iterations // 2)
            final = execute(choices, ops, start, consts)[:, out_index].clamp(1e-4, 1 - 1e-4)
            loss = torch.nn.functional.binary_cross_entropy(final, target.expand_as(final), reduction="none")
            optimiser.zero_grad()
            loss.mean(dim=(1, 2, 3)).sum().backward()
            optimiser.step()
            if it % 10 == 9 or it == iterations - 1:
                yield from _decode(model, ops, registers, constants, regs0, wanted, spec, tried)


def _decode(model, ops, registers, constants, regs0, wanted, spec, tried):
    """Argmax program of every restart; yield those exact on the examples."""
    with torch.no_grad():
        picks = [p.argmax(-1).numpy() for p in (model.op, model.rd, model.ra, model.rb)]
    for k in range(picks[0].shape[0]):
        steps = []
        for t in range(picks[0].shape[1]):
            op, rd, ra, rb = (int(p[k, t]) for p in picks)
            name = ops[op]
            if name in vecops.UNARY:
                steps.append(Step(name, registers[rd], registers[ra]))
            elif rb < len(registers):
                steps.append(Step(name, registers[rd], registers[ra], registers[rb]))
            else:
                steps.append(Step(name, registers[rd], registers[ra], None, constants[rb - len(registers)]))
        key = tuple(steps)
        if key in tried:
            continue
        tried.add(key)
        if np.array_equal(run_steps(steps, regs0)[list(spec.outputs)], wanted):
            lines = lower(prune(steps, spec.outputs))
            if lines is not None:
                yield lines + ["HALT"]
