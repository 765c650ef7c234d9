"""Stochastic search in the style of STOKE (Schkufza, Sharma, Aiken 2013).

A Markov chain over fixed-length straight-line programs (empty slots are
NOPs, so length varies). Cost = Hamming distance between the produced and
the wanted output bits, summed over examples; a proposal that lowers the
cost is always taken, one that raises it by d with probability exp(-beta*d).
Moves: replace an opcode, an operand, a constant; swap two slots; replace a
slot by a fresh instruction (insert) or by a NOP (delete).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator

import numpy as np

from ncpu.synth import vecops
from ncpu.synth.enumerative import allowed_ops, constants_for
from ncpu.synth.program import Step, lower, prune, run_steps
from ncpu.synth.spec import Spec
from ncpu.synth.verify import initial_batch

_POPCOUNT = np.array([bin(i).count("1") for i in range(1 << 16)], np.int64)


def hamming(a: np.ndarray, b: np.ndarray) -> int:
    x = (a ^ b) & 0xFFFFFFFF
    return int(_POPCOUNT[x & 0xFFFF].sum() + _POPCOUNT[x >> 16].sum())


class _Chain:
    def __init__(self, spec: Spec, length: int, rng: random.Random):
        self.spec, self.length, self.rng = spec, length, rng
        self.binary, self.unary = allowed_ops(spec)
        self.ops = self.binary + self.unary + (["MOV"] if spec.allows("MOV") else [])
        # Registers the program may touch: inputs, outputs and a few temporaries.
        used = list(dict.fromkeys(spec.inputs + spec.outputs))
        temps = [r for r in range(8) if r not in used][: max(0, 5 - len(used))]
        self.registers = used + temps
        self.constants = constants_for(spec)

    def random_step(self) -> Step:
        r = self.rng
        op = r.choice(self.ops)
        rd, ra = r.choice(self.registers), r.choice(self.registers)
        if op in vecops.BINARY:
            if r.random() < 0.5:
                return Step(op, rd, ra, None, r.choice(self.constants))
            return Step(op, rd, ra, r.choice(self.registers))
        return Step(op, rd, ra)

    def mutate(self, program: list[Step | None]) -> list[Step | None]:
        r = self.rng
        new = list(program)
        i = r.randrange(self.length)
        move = r.random()
        s = new[i]
        if s is None or move < 0.15:
            new[i] = self.random_step()  # insert / replace
        elif move < 0.25:
            new[i] = None  # delete
        elif move < 0.35:
            j = r.randrange(self.length)
            new[i], new[j] = new[j], new[i]
        elif move < 0.55:
            op = r.choice(self.ops)
            if (op in vecops.BINARY) != (s.op in vecops.BINARY):
                new[i] = self.random_step()
            else:
                new[i] = Step(op, s.rd, s.ra, s.rb, s.const)
        elif move < 0.85:
            field = r.choice(["rd", "ra", "rb"])
            if field == "rd":
                new[i] = Step(s.op, r.choice(self.registers), s.ra, s.rb, s.const)
            elif field == "ra":
                new[i] = Step(s.op, s.rd, r.choice(self.registers), s.rb, s.const)
            elif s.op in vecops.BINARY:
                new[i] = Step(s.op, s.rd, s.ra, r.choice(self.registers)) if r.random() < 0.5 \
                    else Step(s.op, s.rd, s.ra, None, r.choice(self.constants))
        elif s.op in vecops.BINARY and s.rb is None:
            c = s.const + r.choice([-1, 1, -2, 2]) if r.random() < 0.5 else r.choice(self.constants)
            new[i] = Step(s.op, s.rd, s.ra, None, c)
        return new


def search(spec: Spec, deadline: float, seed: int = 0, length: int | None = None,
           beta: float = 1.0, restart_after: int = 20_000) -> Iterator[list[str]]:
    if spec.uses_memory or not spec.outputs:
        return  # straight-line register code only
    rng = random.Random(seed)
    regs0 = initial_batch(spec).registers.T.astype(np.int64)
    wanted = np.array([e.outputs for e in spec.examples], np.int64).T  # [outputs, E]
    outs = list(spec.outputs)
    # Try short programs first: most restarts use a small length, some longer.
    lengths = [length] if length else [3, 4, 6, 8, 10]
    restart = 0
    while time.monotonic() < deadline:
        chain = _Chain(spec, lengths[restart % len(lengths)], rng)
        restart += 1
        program: list[Step | None] = [None] * chain.length

        def cost(p):
            return hamming(run_steps([s for s in p if s is not None], regs0)[outs], wanted)

        current = cost(program)
        best, stale = current, 0
        while stale < restart_after:
            if stale % 256 == 0 and time.monotonic() > deadline:
                return
            proposal = chain.mutate(program)
            c = cost(proposal)
            if c <= current or rng.random() < math.exp(-beta * (c - current)):
                program, current = proposal, c
            if current < best:
                best, stale = current, 0
            else:
                stale += 1
            if current == 0:
                lines = lower(prune([s for s in program if s is not None], spec.outputs))
                if lines is not None:
                    yield lines + ["HALT"]
                break
