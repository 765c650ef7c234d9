"""Is the answer the only small program the examples allow? A distinguishing search.

The race returns the shortest verified program, and says the examples
underdetermine it when another verified program disagrees with it
(`portfolio.Shortest.disagreement`). But the race ends a short grace period
after its first program: a family that meets a large term early (the
enumeration's meet in the middle found `(a >> 1) + (b >> 1)` for the floor
average before it reached `(a + b) >> 1`) can leave the answer with no rival
in hand, and then nothing said that its examples (ten small pairs, none of
them both odd) allow another behaviour.

Jha, Gulwani, Seshia and Tiwari (ICSE 2010) ask an SMT solver for a second
program of the component library that fits the examples and differs from
the answer on some input. Here the question is put to a bounded bottom-up
enumeration instead: every term of at most the answer's number of
operations (and at most MAX_OPERATIONS), over the inputs and constants, is
evaluated on the examples and on inputs drawn like them
(`verify.domain_inputs`); terms are told apart on all of those columns, so
one that fits the examples and computes something else on the drawn inputs
is not merged with the answer's behaviour. The first such term comes back
as assembly (the caller verifies it on the machine like any candidate).
Not complete (larger rivals are not looked for), but it finds the simpler
programs the examples do not rule out, which is what Occam's razor would
have preferred.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ncpu.synth import macros
from ncpu.synth import terms as T
from ncpu.synth import vecops
from ncpu.synth.enumerative import allowed_ops, constants_for
from ncpu.synth.spec import Spec
from ncpu.synth.verify import count_instructions, domain_inputs, outputs_on

MAX_OPERATIONS = 3  # rivals with more operations are not enumerated
DOMAIN_ROWS = 32  # inputs drawn like the examples, as extra columns
# Distinct terms kept per number of operations, and pairs evaluated per
# broadcast: each row is E + DOMAIN_ROWS words, so these bound the memory
# (a first version with a million rows of 88 words per chunk spent tens of
# wall seconds past the budget on a loaded machine).
LEVEL_CAP = 150_000
_CHUNK = 1 << 16


class _Level:
    """Terms with one number of operations: values [n, columns], and how each
    was built: operation index (unary ops after binary), the left operand's
    level and index, the right operand's index (its level is the rest)."""

    def __init__(self, values, op=None, left_level=None, left=None, right=None):
        n = len(values)
        self.values = values
        self.op = np.full(n, -1, np.int64) if op is None else op
        self.left_level = np.zeros(n, np.int64) if left_level is None else left_level
        self.left = np.arange(n) if left is None else left
        self.right = np.zeros(n, np.int64) if right is None else right


def applicable(spec: Spec) -> bool:
    return not spec.uses_memory and len(spec.outputs) == 1 and bool(spec.inputs) and bool(spec.examples)


def rival(spec: Spec, answer_asm: str, deadline: float, engine: str = "compute",
          cpu_seconds: float | None = None) -> list[str] | None:
    """Assembly of a program of at most the answer's operations (and at most
    MAX_OPERATIONS) that fits every example on the numpy model and computes
    something else than `answer_asm` on some input drawn like the examples;
    None when there is none, or when `deadline` (time.monotonic) or
    `cpu_seconds` of this process's CPU time come first (on a loaded machine
    a wall-clock allowance buys little search)."""
    if not applicable(spec) or time.monotonic() > deadline:
        return None
    if cpu_seconds is not None:
        wall, cpu_until = deadline, time.process_time() + cpu_seconds

        def expired() -> bool:
            return time.monotonic() > wall or time.process_time() > cpu_until
    else:
        def expired() -> bool:
            return time.monotonic() > deadline
    rows = domain_inputs(spec, DOMAIN_ROWS)
    if not rows:
        return None
    answer = outputs_on(answer_asm, spec, rows, engine, 20_000)
    mine = np.array([out[1] if out[0] else np.iinfo(np.int64).min for out in answer], np.int64)
    E = len(spec.examples)
    columns = np.zeros((8, E + len(rows)), np.int64)
    for e, example in enumerate(spec.examples):
        columns[list(spec.inputs), e] = example.inputs
    columns[list(spec.inputs), E:] = np.array(rows, np.int64).T
    target = np.array([e.outputs[0] for e in spec.examples], np.int64)
    operations = min(MAX_OPERATIONS, count_instructions(answer_asm))
    binary, unary = allowed_ops(spec)
    binary = binary + macros.allowed(spec)  # MULHU as one operation, as the enumeration has it
    functions = {**vecops.BINARY, **{name: m.values for name, m in macros.MACROS.items()}}

    leaves = [T.inp(r) for r in spec.inputs] + [T.const(c) for c in constants_for(spec)]
    ops = binary + unary
    coeff = np.random.default_rng(0).integers(1, 1 << 63, size=columns.shape[1], dtype=np.uint64) | np.uint64(1)
    seen = np.zeros(0, np.uint64)  # hashes of every behaviour kept so far, sorted

    def rivals(v: np.ndarray) -> np.ndarray:
        return np.flatnonzero((v[:, :E] == target).all(1) & (v[:, E:] != mine).any(1))

    def term(k: int, i: int) -> T.Term:
        level = levels[k]
        op = int(level.op[i])
        if op < 0:
            return leaves[int(level.left[i])]
        left = term(int(level.left_level[i]), int(level.left[i]))
        if op >= len(binary):
            return T.unary(ops[op], left)
        return macros.node(ops[op], left, term(k - 1 - int(level.left_level[i]), int(level.right[i])))

    levels: list[_Level] = [_Level(np.stack([T.evaluate(t, columns) for t in leaves]))]
    for k in range(operations + 1):
        if k > 0:
            # Every term with k operations: a unary op over k - 1, a binary
            # op over i and k - 1 - i; evaluated a chunk at a time, each
            # chunk searched for a rival at once.
            parts: list[tuple] = []
            for op_index, op in enumerate(ops):
                unary_op = op_index >= len(binary)
                for i in ([k - 1] if unary_op else range(k)):
                    left = levels[i]
                    right = None if unary_op else levels[k - 1 - i]
                    width = 1 if unary_op else max(1, len(right.values))
                    step = max(1, _CHUNK // width)
                    for start in range(0, len(left.values), step):
                        if expired():
                            return None
                        a = left.values[start:start + step]
                        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
                            v = vecops.UNARY[op](a) if unary_op else \
                                functions[op](a[:, None, :], right.values[None, :, :]).reshape(-1, a.shape[1])
                        n = np.arange(len(v))
                        li, ri = start + n // width, n % width
                        hit = rivals(v)
                        if hit.size:
                            levels.append(_Level(v[hit[:1]], np.array([op_index]), np.array([i]),
                                                 li[hit[:1]], ri[hit[:1]]))
                            return _assemble(term(k, 0), spec)  # levels 0..k-1 are built: this is k
                        if k < operations and sum(len(p[0]) for p in parts) < LEVEL_CAP:
                            parts.append((v, np.full(len(v), op_index), np.full(len(v), i), li, ri))
            if k == operations or not parts or expired():
                return None
            values = np.concatenate([p[0] for p in parts])
            level = _Level(values, *(np.concatenate([p[j] for p in parts]) for j in range(1, 5)))
        else:
            level = levels.pop()
            hit = rivals(level.values)
            levels.append(level)
            if hit.size:
                return _assemble(leaves[int(hit[0])], spec)
        # Observational equivalence over examples and drawn inputs: keep the
        # first term of each behaviour not seen at a smaller level.
        h = level.values.view(np.uint64) @ coeff
        _, first = np.unique(h, return_index=True)
        first = np.sort(first)
        first = first[~np.isin(h[first], seen)]
        seen = np.union1d(seen, h[first])
        kept = _Level(level.values[first], level.op[first], level.left_level[first], level.left[first], level.right[first])
        if k == 0:
            levels[0] = kept
        else:
            levels.append(kept)
    return None


def _assemble(term: T.Term, spec: Spec) -> list[str] | None:
    lines = T.compile_terms({spec.outputs[0]: term}, None, spec.inputs)
    return None if lines is None else lines + ["HALT"]
