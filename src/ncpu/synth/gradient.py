"""The differentiable executor: a straight-line program of L slots as
continuous parameters, trained by gradient descent through the machine's
own operation semantics.

Parametrisation (K restarts x L slots, all one batch of tensors):

* per slot, logits over the opcodes (Gumbel-softmax, straight-through);
* per slot, two attention vectors choosing its operands among the values
  that exist at that point: the inputs, a constant vocabulary, and the
  results of the earlier slots (SSA form: slot t defines value t, so there
  is no destination register to learn and nothing is overwritten);
* per output register, an attention vector over all values.

The constant vocabulary is mined from the examples: the default pool, the
constant offsets / XOR masks between an input and an output, exact ratios
(x * k), every 2^k, 2^k - 1 and ~2^k, and the outputs themselves when they
take few values.

Forward pass: every sample is a discrete program (hard straight-through
choices), executed exactly on int64 tensors with the nCPU semantics (the
same definitions as `vecops`), so a restart whose outputs match every
example *is* a solution: it is decoded and yielded at once. The values also
carry bit-probability tensors on which gradients flow: the result of slot t
is the opcode mixture sum_o w_o * bits(op_o(a, b)), each op's exact bits
plus (straight-through) the gradient of a soft bit-level circuit of the
same op: AND/OR/XOR/NOT as products, ADD/SUB/NEG as a soft carry-lookahead
adder (5 parallel-prefix steps, not 32 ripple steps), shifts by the chosen
amount as a differentiable gather of the operand's bits. MUL/DIV/MOD pass
gradient to their own selection, not to their operands.

Loss: the linearised Hamming distance sum(out * (1 - 2 t)) over output
bits, so the gradient on a choice is exactly how many output bits each
alternative would fix or break (a first-order local search over programs).
Exploration comes from Gumbel noise whose scale is annealed from 1 to 0.1;
restarts that have not improved for a while are re-initialised.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np
import torch

from ncpu.alu.exact import OPS, UNARY_OPS, ExactALU
from ncpu.synth import terms as T
from ncpu.synth import vecops
from ncpu.synth.enumerative import allowed_ops, constants_for
from ncpu.synth.spec import Spec

_SHIFTS = torch.arange(32, dtype=torch.int64)
_BIT = torch.arange(32)
MASK = 0xFFFFFFFF
MAX_CONSTANTS = 48
LR = 0.1  # Adam on the logits
NOISE = 0.5  # initial Gumbel noise scale, annealed to a tenth of it
PRIOR = 1.5  # logit bonus of inputs and earlier results over constants
PATIENCE = 40  # iterations without improvement before a restart is re-drawn


# --- exact nCPU semantics on int64 tensors: ncpu.alu.exact at 32 bits ------

_EXACT = ExactALU(32)
EXACT = {op: (lambda a, b, op=op: _EXACT.compute(op, a, None if op in UNARY_OPS else b)) for op in OPS}


def to_bits(values: torch.Tensor) -> torch.Tensor:
    return ((values[..., None] & MASK) >> _SHIFTS & 1).float()


# --- soft circuits (gradients only) -----------------------------------------

def _soft_add(x: torch.Tensor, y: torch.Tensor, carry_in: torch.Tensor) -> torch.Tensor:
    """Sum bits of independent bit probabilities, carry-lookahead style:
    generate/propagate combined by 5 parallel-prefix steps."""
    g = x * y
    p = x + y - 2 * g  # XOR: propagate
    # Position -1 generates the carry-in.
    G = torch.cat([carry_in[..., None].expand(*x.shape[:-1], 1), g], -1)
    P = torch.cat([torch.zeros_like(G[..., :1]), p], -1)
    d = 1
    while d < 33:
        G_lo = torch.nn.functional.pad(G[..., :-d], (d, 0))
        P_lo = torch.nn.functional.pad(P[..., :-d], (d, 0))
        G = G + P * G_lo - G * P * G_lo
        P = P * P_lo
        d *= 2
    c = G[..., :32]  # carry into bit i = prefix generate of bits -1..i-1
    return p + c - 2 * p * c


def _soft_shift(a: torch.Tensor, amount: torch.Tensor, op: str) -> torch.Tensor:
    """Bits of a shifted by the (exact, per example) amount; differentiable in a."""
    s = (amount & MASK).clamp(max=40)[..., None]
    if op == "SHL":
        idx = _BIT - s
        ok = idx >= 0
    elif op == "SHR":
        idx = _BIT + s
        ok = idx < 32
    else:  # SAR
        idx = (_BIT + s).clamp(max=31)
        ok = torch.ones_like(idx, dtype=torch.bool)
    gathered = torch.gather(a, -1, idx.clamp(0, 31).expand(*a.shape[:-1], 32))
    return torch.where(ok, gathered, torch.zeros_like(gathered))


def _surrogates(ops: list[str], a, b, a_int, b_int) -> dict[str, torch.Tensor]:
    out = {}
    adders = [op for op in ops if op in ("ADD", "SUB", "NEG")]
    if adders:
        x = torch.stack([torch.zeros_like(a) if op == "NEG" else a for op in adders])
        y = torch.stack([b if op == "ADD" else 1 - (a if op == "NEG" else b) for op in adders])
        cin = torch.tensor([0.0 if op == "ADD" else 1.0 for op in adders]).view(-1, *([1] * (a.dim() - 1)))
        sums = _soft_add(x, y, cin.expand(*x.shape[:-1]))
        out.update(zip(adders, sums))
    for op in ops:
        if op == "AND":
            out[op] = a * b
        elif op == "OR":
            out[op] = a + b - a * b
        elif op == "XOR":
            out[op] = a + b - 2 * a * b
        elif op == "NOT":
            out[op] = 1 - a
        elif op in ("SHL", "SHR", "SAR"):
            out[op] = _soft_shift(a, b_int, op)
    return out


# --- the vocabulary ----------------------------------------------------------

def vocabulary(spec: Spec) -> list[int]:
    """Constants for the operand attention: the shared pool plus what the
    examples suggest: exact ratios output / input (x * k), and the bit
    masks the outputs agree on (bits always 0 or always 1 across all
    examples, and their complements), which is where AND/OR/XOR masks
    come from. Kept small: every constant widens every attention."""
    from ncpu.isa.semantics import wrap

    found = list(constants_for(spec))
    if spec.constants:
        return found
    for j in range(len(spec.outputs)):
        outs = [e.outputs[j] for e in spec.examples]
        if len(set(outs)) <= 2:
            found += outs
        ones, anyone = MASK, 0
        for o in outs:
            ones &= o & MASK
            anyone |= o & MASK
        found += [wrap(ones), wrap(~ones & MASK), wrap(anyone), wrap(~anyone & MASK)]
        for i in range(len(spec.inputs)):
            ins = [e.inputs[i] for e in spec.examples]
            if all(x == 0 or o % x == 0 for o, x in zip(outs, ins)):
                ratios = {o // x for o, x in zip(outs, ins) if x != 0}
                if len(ratios) == 1:
                    found.append(wrap(ratios.pop()))
    return list(dict.fromkeys(found))[:MAX_CONSTANTS]


# --- the search --------------------------------------------------------------

def _sample(logits: torch.Tensor, noise: float, tau: float) -> torch.Tensor:
    """Straight-through Gumbel-softmax: one-hot forward, soft gradient."""
    g = -torch.log(-torch.log(torch.rand_like(logits).clamp(1e-9, 1 - 1e-9)))
    soft = torch.softmax((logits + noise * g) / tau, -1)
    hard = torch.nn.functional.one_hot(soft.argmax(-1), soft.shape[-1]).to(soft.dtype)
    return hard + soft - soft.detach()


class SoftProgram(torch.nn.Module):
    """K restarts of an L-slot SSA program over V0 leaves."""

    def __init__(self, k: int, length: int, n_ops: int, n_leaves: int, n_outputs: int, n_inputs: int = 0):
        super().__init__()
        self.n_inputs = n_inputs
        total = n_leaves + length
        self.k, self.length, self.n_leaves = k, length, n_leaves
        self.op = torch.nn.Parameter(torch.zeros(k, length, n_ops))
        self.a = torch.nn.Parameter(torch.zeros(k, length, total))
        self.b = torch.nn.Parameter(torch.zeros(k, length, total))
        # Outputs read slot results only: were leaves allowed, an output would
        # settle early on the input nearest the target and starve the slots.
        self.out = torch.nn.Parameter(torch.zeros(k, n_outputs, length))
        # Slot t may read only leaves and slots < t.
        visible = torch.arange(total)[None, :] < (n_leaves + torch.arange(length))[:, None]
        self.register_buffer("mask", torch.where(visible, 0.0, -1e9))
        self.reset(torch.ones(k, dtype=torch.bool))

    @torch.no_grad()
    def reset(self, which: torch.Tensor) -> None:
        n = int(which.sum())
        if not n:
            return
        self.op[which] = 0.5 * torch.randn(n, *self.op.shape[1:])
        # A prior towards inputs and earlier results over the (many) constants.
        prior = torch.zeros(self.a.shape[-1])
        prior[: self.n_inputs] = PRIOR
        prior[self.n_leaves:] = PRIOR
        self.a[which] = 0.5 * torch.randn(n, *self.a.shape[1:]) + prior
        self.b[which] = 0.5 * torch.randn(n, *self.b.shape[1:]) + prior / 2
        out = 0.5 * torch.randn(n, *self.out.shape[1:])
        for j in range(out.shape[1]):  # a prior: the last slots are the outputs, in order
            out[:, j, max(0, out.shape[2] - out.shape[1] + j)] += 2.0
        self.out[which] = out


def run(model: SoftProgram, ops: list[str], leaf_int: torch.Tensor, noise: float, tau: float):
    """One sampled program per restart: (out_int [K, n_out, E], out_bits,
    choices as index tensors)."""
    K = model.k
    ints = [leaf_int.expand(K, *leaf_int.shape)]  # [K, V0, E]
    bits = [to_bits(ints[0])]  # [K, V0, E, 32]
    picks = []
    for t in range(model.length):
        vals_int = torch.cat(ints, 1)
        vals_bits = torch.cat(bits, 1)
        width = vals_int.shape[1]
        w_op = _sample(model.op[:, t], noise, tau)
        w_a = _sample(model.a[:, t, :width] + model.mask[t, :width], noise, tau)
        w_b = _sample(model.b[:, t, :width] + model.mask[t, :width], noise, tau)
        ia, ib, io = w_a.argmax(-1), w_b.argmax(-1), w_op.argmax(-1)
        a_int = vals_int[torch.arange(K), ia]  # [K, E]
        b_int = vals_int[torch.arange(K), ib]
        a_bits = torch.einsum("kv,kveb->keb", w_a, vals_bits)
        b_bits = torch.einsum("kv,kveb->keb", w_b, vals_bits)
        r_int = torch.stack([EXACT[op](a_int, b_int) for op in ops], 1)  # [K, O, E]
        r_bits = to_bits(r_int)
        sur = _surrogates(ops, a_bits, b_bits, a_int, b_int)
        r_bits = torch.stack([r_bits[:, o] + (sur[op] - sur[op].detach()) if op in sur else r_bits[:, o]
                              for o, op in enumerate(ops)], 1)
        ints.append(r_int[torch.arange(K), io][:, None])
        bits.append(torch.einsum("ko,koeb->keb", w_op, r_bits)[:, None])
        picks.append((io, ia, ib))
    vals_int = torch.cat(ints[1:], 1)  # the slot results
    vals_bits = torch.cat(bits[1:], 1)
    w_out = _sample(model.out, noise, tau)  # [K, n_out, V]
    out_bits = torch.einsum("knv,kveb->kneb", w_out, vals_bits)
    io = w_out.argmax(-1)  # [K, n_out]
    out_int = torch.gather(vals_int, 1, io[..., None].expand(*io.shape, vals_int.shape[-1]))
    return out_int, out_bits, picks, io


def warm_up() -> None:
    """What the first search would otherwise pay inside its race: torch
    imports its compiler stack (torch._dynamo) on the first optimiser built,
    about 2 CPU-s. The portfolio's worker calls this before it says ready."""
    torch.optim.Adam([torch.zeros(1, requires_grad=True)], lr=LR)


def search(spec: Spec, deadline: float, seed: int = 0, restarts: int = 128, iterations: int = 150,
           lengths: tuple[int, ...] = (2, 3, 4, 3, 4, 5), debug: bool = False) -> Iterator[list[str]]:
    if spec.uses_memory or not spec.outputs:
        return
    binary, unary = allowed_ops(spec)
    ops = binary + unary
    constants = vocabulary(spec)
    leaves = [T.inp(r) for r in spec.inputs] + [T.const(c) for c in constants]
    E = len(spec.examples)
    leaf_int = torch.tensor([list(e.inputs) for e in spec.examples] or [[]], dtype=torch.int64).T.reshape(-1, E)
    leaf_int = torch.cat([leaf_int, torch.tensor(constants, dtype=torch.int64)[:, None].expand(-1, E)], 0)
    target_int = torch.tensor([list(e.outputs) for e in spec.examples], dtype=torch.int64).T  # [n_out, E]
    target_bits = to_bits(target_int)
    torch.manual_seed(seed)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # one worker per family: do not fight the others for cores
    tried: set = set()
    try:
        round_index = 0
        while time.monotonic() < deadline:
            length = lengths[round_index % len(lengths)]
            round_index += 1
            model = SoftProgram(restarts, length, len(ops), len(leaves), len(spec.outputs), len(spec.inputs))
            optimiser = torch.optim.Adam(model.parameters(), lr=LR)
            best = torch.full((restarts,), float("inf"))
            stale = torch.zeros(restarts, dtype=torch.long)
            for it in range(iterations):
                if time.monotonic() > deadline:
                    return
                frac = it / iterations
                noise = NOISE * (0.1 ** frac)
                tau = 1.0 * (0.2 ** frac)
                out_int, out_bits, picks, out_pick = run(model, ops, leaf_int, noise, tau)
                solved = (out_int == target_int).all(-1).all(-1)
                for k in torch.nonzero(solved).flatten().tolist():
                    lines = _decode(k, picks, out_pick, ops, leaves, spec, tried)
                    if lines is not None:
                        yield lines
                if debug and it % 50 == 0:
                    print(length, it, float(best.min()), int(solved.sum()), flush=True)
                loss = (out_bits * (1 - 2 * target_bits) + target_bits).sum((1, 2, 3)) / (E * 32 * len(spec.outputs))
                optimiser.zero_grad()
                loss.sum().backward()
                optimiser.step()
                with torch.no_grad():
                    better = loss.detach() < best - 1e-6
                    best = torch.where(better, loss.detach(), best)
                    stale = torch.where(better, torch.zeros_like(stale), stale + 1)
                    dead = stale > PATIENCE
                    if dead.any():
                        model.reset(dead)
                        best[dead] = float("inf")
                        stale[dead] = 0
    finally:
        torch.set_num_threads(threads)


def _decode(k, picks, out_pick, ops, leaves, spec, tried) -> list[str] | None:
    """Restart k's sampled program as terms, compiled to register code."""
    values = list(leaves)
    for io, ia, ib in picks:
        op, a, b = ops[int(io[k])], values[int(ia[k])], values[int(ib[k])]
        values.append(T.unary(op, a) if op in vecops.UNARY else T.binary(op, a, b))
    registers = {r: values[len(leaves) + int(out_pick[k, j])] for j, r in enumerate(spec.outputs)}
    key = tuple(sorted(registers.items()))
    if key in tried:
        return None
    tried.add(key)
    lines = T.compile_terms(registers, [], spec.inputs)
    return None if lines is None else lines + ["HALT"]
