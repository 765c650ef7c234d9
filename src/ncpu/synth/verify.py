"""Exact checking of a candidate program on every example, on a real engine.

Nothing is reported as a solution until it has passed here: the searches use
fast approximations (numpy, torch) but the verdict is the machine's.
"""

from __future__ import annotations

import os
import time

import numpy as np

from ncpu.isa import AssemblerError, assemble
from ncpu.machine.state import DEFAULT_MEM_SIZE, BatchState
from ncpu.synth.spec import Spec

# Straight-line code needs one step per word; loops get a generous budget so
# a correct program never fails for lack of steps, and a wrong one that spins
# forever still ends.
LOOP_STEPS = 200_000


def _run_batch(engine: str):
    """The run_batch of an engine by name; `NCPU_SYNTH_ENGINE` overrides."""
    engine = os.environ.get("NCPU_SYNTH_ENGINE", engine)
    if engine == "reference":
        from ncpu.machine import reference

        return reference.run_batch
    try:
        from ncpu.machine.engines import get_engine

        chosen = get_engine(engine)
        return getattr(chosen, "run_batch", chosen)
    except ImportError:
        from ncpu.machine import compute

        return compute.run_batch


def probe_inputs(spec: Spec, count: int = 24, seed: int = 0) -> list[list[int]]:
    """Inputs the examples may not cover, to tell apart programs that agree on
    every example: each input all 0, 1, -1, INT_MIN, INT_MAX, then mixes of
    edge values, small numbers and random words (deterministic)."""
    import random

    from ncpu.isa.semantics import EDGE_VALUES, INT_MAX, INT_MIN, wrap

    rng = random.Random(f"probe:{seed}")
    arity = len(spec.inputs)
    if not arity:
        return [[] for _ in range(count)]
    # An input that is already an example cannot tell fitting programs apart
    # (with an oracle, each distinguishing input becomes one): draw another.
    known = {tuple(e.inputs) for e in spec.examples}
    rows = [[v] * arity for v in (0, 1, -1, INT_MIN, INT_MAX) if (v,) * arity not in known]
    known |= {tuple(row) for row in rows}
    while len(rows) < count:
        row = [rng.choice([rng.choice(EDGE_VALUES), rng.randint(-64, 64), wrap(rng.getrandbits(32))])
               for _ in range(arity)]
        if tuple(row) not in known:
            known.add(tuple(row))
            rows.append(row)
    return rows[:count]


def domain_inputs(spec: Spec, count: int = 512, seed: int = 0) -> list[list[int]]:
    """Inputs drawn like the examples' own, where a user's next input would
    come from: each value, per input register, is one of
    * uniform between the smallest and largest value that register has in
      the examples (a "small" problem's -1000..1000 stays there),
    * a word of the same sign and bit length as one of its example values
      (magnitudes as the examples have them: words with many leading zeros
      stay such words),
    * one of its example values, in a row made of other examples' values,
    * now and then 0, 1 or -1 when the examples lie on both sides of 0.
    The examples' own rows are left out (every candidate fits them)."""
    import random

    from ncpu.isa.semantics import wrap

    if not spec.inputs or not spec.examples:
        return []
    rng = random.Random(f"domain:{seed}")
    columns = [[e.inputs[i] for e in spec.examples] for i in range(len(spec.inputs))]

    def like(values: list[int]) -> int:
        pick = rng.random()
        if pick < 0.05 and min(values) <= 0 <= max(values):
            return rng.choice([0, 1, -1])  # between the examples, whatever their spread (sign at 0)
        if pick < 0.4:
            return rng.randint(min(values), max(values))
        v = rng.choice(values)
        if pick < 0.8:
            bits = abs(v).bit_length()
            magnitude = (1 << (bits - 1)) | rng.getrandbits(bits - 1) if bits > 1 else bits
            return wrap(-magnitude if v < 0 else magnitude)
        return v

    seen = {tuple(e.inputs) for e in spec.examples}
    rows: list[list[int]] = []
    for _ in range(20 * count):  # few distinct rows exist when the examples' values are few
        if len(rows) >= count:
            break
        row = [like(values) for values in columns]
        if tuple(row) not in seen:
            seen.add(tuple(row))
            rows.append(row)
    return rows


def disagreement_pool(spec: Spec, count: int = 1024, seed: int = 0) -> list[list[int]]:
    """Where verified programs are compared (`portfolio.Shortest.disagreement`):
    the probe inputs, then words of every magnitude (a random bit length, either
    sign: uniform words almost all have 0 or 1 leading zeros, so tests on
    magnitudes would never be told apart) and uniform words. The examples'
    own inputs are left out (every candidate fits them)."""
    import random

    from ncpu.isa.semantics import wrap

    if not spec.inputs:
        return []
    rng = random.Random(f"pool:{seed}")
    known = {tuple(e.inputs) for e in spec.examples}
    rows = probe_inputs(spec, seed=seed)
    seen = {tuple(r) for r in rows} | known
    while len(rows) < count:
        row = []
        for _ in spec.inputs:
            if rng.random() < 0.5:
                value = rng.getrandbits(rng.randint(0, 31))
                row.append(wrap(-value if rng.random() < 0.5 else value))
            else:
                row.append(wrap(rng.getrandbits(32)))
        if tuple(row) not in seen:
            seen.add(tuple(row))
            rows.append(row)
    return rows


def outputs_on(asm: str, spec: Spec, inputs: list[list[int]], engine: str = "compute",
               max_steps: int = LOOP_STEPS) -> list[tuple]:
    """What a program leaves in the spec's output registers (and whether it
    halted) for each row of register inputs."""
    from ncpu.synth.spec import Example

    examples = [Example(tuple(row), (), (), ()) for row in inputs]
    final = run_examples(assemble(asm).words, spec, examples, engine=engine, max_steps=max_steps)
    return [(bool(final.halted[i]), *final.registers[i, list(spec.outputs)].tolist()) for i in range(len(inputs))]


def initial_batch(spec: Spec, examples=None) -> BatchState:
    examples = spec.examples if examples is None else examples
    batch = BatchState.zeros(len(examples), DEFAULT_MEM_SIZE)
    for i, example in enumerate(examples):
        for register, value in zip(spec.inputs, example.inputs):
            batch.registers[i, register] = value
        for base, values in example.memory_in:
            batch.memory[i, base:base + len(values)] = values
    return batch


def run_examples(words: list[int], spec: Spec, examples=None, engine: str = "compute",
                 max_steps: int = LOOP_STEPS) -> BatchState:
    return _run_batch(engine)(words, initial_batch(spec, examples), max_steps)


def matches(final: BatchState, spec: Spec, examples=None) -> np.ndarray:
    """bool[E]: which examples the final states satisfy (halted, outputs, memory)."""
    examples = spec.examples if examples is None else examples
    ok = np.array(final.halted, dtype=bool).copy()
    for i, example in enumerate(examples):
        if list(final.registers[i, list(spec.outputs)]) != list(example.outputs):
            ok[i] = False
        for base, values in example.memory_out:
            if list(final.memory[i, base:base + len(values)]) != list(values):
                ok[i] = False
    return ok


# With a deadline, examples are run in chunks of this many and the deadline is
# looked at between chunks: checking a candidate counts against the budget.
CHECK_CHUNK = 256


def check_asm(asm: str, spec: Spec, engine: str = "compute", max_steps: int = LOOP_STEPS,
              deadline: float | None = None) -> bool:
    """True when the assembly meets the spec's constraints and every example
    (False, unverified, when `deadline` (time.monotonic) passes first)."""
    try:
        program = assemble(asm)
    except AssemblerError:
        return False
    if spec.max_length is not None and count_instructions(asm) > spec.max_length:
        return False
    if spec.opcodes is not None:
        from ncpu.isa import decode

        if any(decode(w).op.mnemonic not in spec.opcodes | {"HALT"} for w in program.words):
            return False
    if deadline is None:
        return bool(matches(run_examples(program.words, spec, engine=engine, max_steps=max_steps), spec).all())
    for first in range(0, len(spec.examples), CHECK_CHUNK):
        if time.monotonic() > deadline:
            return False
        chunk = spec.examples[first:first + CHECK_CHUNK]
        if not matches(run_examples(program.words, spec, chunk, engine, max_steps), spec, chunk).all():
            return False
    return True


def count_instructions(asm: str) -> int:
    """Words of the program, not counting the trailing HALT the emitters add."""
    from ncpu.isa import decode

    words = assemble(asm).words
    return sum(1 for w in words if decode(w).op.mnemonic != "HALT")
