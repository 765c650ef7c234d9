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

import math
import time
from dataclasses import dataclass

import numpy as np

from ncpu.synth import macros, ranking
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
# Equivalents of the answer assembled and ranked: per chunk, and in all.
SIMPLER_PER_CHUNK = 2
SIMPLER_CHECKS = 24
# The chance-fit test (`Found.chance`, `_ChanceTest`): the probability of a
# coincidental fit above which the answer is flagged. A p-value threshold,
# so it is the share of answers to unrelated outputs that would pass
# unflagged: one in a thousand.
CHANCE_LEVEL = 1e-3
# Outputs with more rearrangements than this are never fitted by chance
# often enough to matter (K would have to exceed CHANCE_LEVEL times it, more
# terms than the search evaluates): the test is not run.
CHANCE_ARRANGEMENTS = 10**12


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


@dataclass
class Found:
    """What the distinguishing search found (assembly, to be verified by the caller)."""
    # Fits every example and computes something else on an input drawn like them.
    rival: list[str] | None = None
    # Fits every example, agrees with the answer on every drawn input, and is
    # simpler than it (`ranking.rank`): the answer as Occam would have it.
    simpler: list[str] | None = None
    # The chance-fit test (`_ChanceTest`): the probability that programs of
    # the answer's size would fit the examples' outputs rearranged at random
    # (a lower bound where the enumeration stopped early; None when a rival
    # was found or not looked for).
    chance: float | None = None


def rival(spec: Spec, answer_asm: str, deadline: float, engine: str = "compute",
          cpu_seconds: float | None = None) -> list[str] | None:
    """The rival `search` finds, or None."""
    return search(spec, answer_asm, deadline, engine, cpu_seconds).rival


def search(spec: Spec, answer_asm: str, deadline: float, engine: str = "compute",
           cpu_seconds: float | None = None, want_rival: bool = True) -> Found:
    """Programs of at most the answer's operations (and at most
    MAX_OPERATIONS) that fit every example on the numpy model: the first
    that computes something else than `answer_asm` on some input drawn like
    the examples (the search stops there), and the simplest one seen that
    agrees with it there and ranks before it. Bounded by `deadline`
    (time.monotonic) and `cpu_seconds` of this process's CPU time (on a
    loaded machine a wall-clock allowance buys little search). With
    `want_rival` False only the simpler equivalent is looked for."""
    found = Found()
    if not applicable(spec) or time.monotonic() > deadline:
        return found
    if cpu_seconds is not None:
        wall, cpu_until = deadline, time.process_time() + cpu_seconds

        def expired() -> bool:
            return time.monotonic() > wall or time.process_time() > cpu_until
    else:
        def expired() -> bool:
            return time.monotonic() > deadline
    rows = domain_inputs(spec, DOMAIN_ROWS)
    if not rows:
        return found
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
    best_rank = ranking.rank(answer_asm)
    simpler_checked = 0

    leaves = [T.inp(r) for r in spec.inputs] + [T.const(c) for c in constants_for(spec)]
    ops = binary + unary
    coeff = np.random.default_rng(0).integers(1, 1 << 63, size=columns.shape[1], dtype=np.uint64) | np.uint64(1)
    seen = np.zeros(0, np.uint64)  # hashes of every behaviour kept so far, sorted
    chance = _ChanceTest(target, coeff[:E]) if want_rival and chance_testable(spec) else None
    note_rearrangements = chance.note if chance is not None else (lambda v: None)

    def apply(op_index: int, a: np.ndarray, b: np.ndarray | None) -> np.ndarray:
        """Every (row of a, row of b) pair under the op, [len(a) * len(b), columns]."""
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            if b is None:
                return vecops.UNARY[ops[op_index]](a)
            return functions[ops[op_index]](a[:, None, :], b[None, :, :]).reshape(-1, a.shape[1])

    def term(k: int, i: int) -> T.Term:
        level = levels[k]
        op = int(level.op[i])
        if op < 0:
            return leaves[int(level.left[i])]
        left = term(int(level.left_level[i]), int(level.left[i]))
        if op >= len(binary):
            return T.unary(ops[op], left)
        return macros.node(ops[op], left, term(k - 1 - int(level.left_level[i]), int(level.right[i])))

    def consider(v: np.ndarray, k: int, built) -> bool:
        """Look at the terms `v` (their build arrays `built()`, as _Level
        takes them) of level k for a rival (True: found) and for a simpler
        equivalent of the answer."""
        nonlocal best_rank, simpler_checked
        fit = np.flatnonzero((v[:, :E] == target).all(1))
        if not fit.size:
            return False
        differ = (v[fit, E:] != mine).any(1)
        if not want_rival:
            fit, differ = fit[~differ], differ[~differ]
        pick = np.concatenate([fit[differ][:1], fit[~differ][:SIMPLER_PER_CHUNK]])
        if simpler_checked >= SIMPLER_CHECKS:
            pick = pick[:int(differ.any())]
        if not pick.size:
            return False
        levels.append(_Level(v[pick], *(x[pick] for x in built())))
        try:
            for n in range(len(pick)):
                lines = _assemble(term(k, n), spec)
                if lines is None:
                    continue
                if n == 0 and differ.any():
                    found.rival = lines
                    return True
                simpler_checked += 1
                key = ranking.rank("\n".join(lines))
                if key < best_rank:
                    best_rank, found.simpler = key, lines
        finally:
            levels.pop()
        return False

    def enumerate_all() -> None:
        """Every term of up to `operations` operations, level by level,
        until a rival turns up or the time is spent."""
        nonlocal seen
        leaf = _Level(np.stack([T.evaluate(t, columns) for t in leaves]))
        note_rearrangements(leaf.values[:, :E])
        if consider(leaf.values, 0, lambda: (leaf.op, leaf.left_level, leaf.left, leaf.right)):
            return
        levels.append(leaf)
        for k in range(operations + 1):
            if k > 0:
                # Every term with k operations: a unary op over k - 1, a binary
                # op over i and k - 1 - i; evaluated a chunk at a time, each
                # chunk searched at once. The last level is not kept: its terms
                # are evaluated on the examples first, and on the drawn inputs
                # only where they fit (most of the work, on a fraction of the
                # columns).
                top = k == operations
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
                                return
                            a = left.values[start:start + step]
                            if top:
                                v = apply(op_index, a[:, :E], None if unary_op else right.values[:, :E])
                                note_rearrangements(v)
                                fit = np.flatnonzero((v == target).all(1))
                                if not fit.size:
                                    continue
                                li, ri = start + fit // width, fit % width
                                v = apply(op_index, left.values[li], None) if unary_op else \
                                    functions[op](left.values[li], right.values[ri])
                            else:
                                v = apply(op_index, a, None if unary_op else right.values)
                                note_rearrangements(v[:, :E])
                                n = np.arange(len(v))
                                li, ri = start + n // width, n % width
                            built = (lambda li=li, ri=ri, n=len(v), o=op_index, i=i:
                                     (np.full(n, o), np.full(n, i), li, ri))
                            if consider(v, k, built):
                                return
                            if not top and sum(len(p[0]) for p in parts) < LEVEL_CAP:
                                parts.append((v, *built()))
                if top or not parts or expired():
                    return
                values = np.concatenate([p[0] for p in parts])
                level = _Level(values, *(np.concatenate([p[j] for p in parts]) for j in range(1, 5)))
            else:
                level = levels.pop()
            # Observational equivalence over examples and drawn inputs: keep the
            # first term of each behaviour not seen at a smaller level.
            h = level.values.view(np.uint64) @ coeff
            _, first = np.unique(h, return_index=True)
            first = np.sort(first)
            first = first[~np.isin(h[first], seen)]
            seen = np.union1d(seen, h[first])
            levels.append(_Level(level.values[first], level.op[first], level.left_level[first], level.left[first],
                                 level.right[first]))

    levels: list[_Level] = []
    enumerate_all()
    if chance is not None and found.rival is None:
        found.chance = chance.p_value()
    return found


def arrangements(outputs) -> int:
    """Distinct rearrangements of `outputs` (a multinomial coefficient)."""
    count, placed = 1, 0
    for n in np.unique(np.asarray(outputs), return_counts=True)[1]:
        placed += int(n)
        count *= math.comb(placed, int(n))
    return count


def chance_testable(spec: Spec) -> bool:
    """Could the examples' outputs be fitted by chance often enough to flag
    (`_ChanceTest`)? Few rearrangements: few examples, or few distinct outputs."""
    return applicable(spec) and arrangements([e.outputs[0] for e in spec.examples]) <= CHANCE_ARRANGEMENTS


class _ChanceTest:
    """The chance-fit test: how likely would programs of the answer's size
    fit the examples if their outputs had nothing to do with their inputs?

    A permutation test (the question Ojala and Garriga, "Permutation tests
    for studying classifier performance", JMLR 2010, put to classifiers):
    were the outputs unrelated to the inputs, every rearrangement of them
    among the examples would be as likely as the one given. Of the M
    distinct rearrangements, K are computed by some enumerated program (the
    answer's own behaviour among them), so a rearrangement drawn at random
    is fitted with probability exactly K / M: the p-value of "the fit is
    no coincidence". Distinct 32-bit outputs have M = E! rearrangements and
    K = 1; ten outputs in 0-3 (the popcount of a nibble) have M = 25,200,
    and 52 of those are computed by programs of three operations, one of
    them `mulhu(x, 263) & 3`, which fits the real ones by chance. K counts
    only what was enumerated before the search stopped: a lower bound."""

    def __init__(self, target: np.ndarray, coeff: np.ndarray):
        self.target = target
        self.sorted = np.sort(target)
        self.signature = _multiset_signature(target[None, :])[0]
        self.coeff = coeff
        self.seen: set[int] = set()  # hashes of the rearrangements computed so far

    def note(self, v: np.ndarray) -> None:
        """Count the rows of `v` (terms on the examples' columns) that are
        rearrangements of the outputs."""
        # Cheap screens first: within the outputs' range, a column at a
        # time (most rows hold other values); then the same multiset
        # signature; the sorted comparison only for what is left.
        lo, hi = self.sorted[0], self.sorted[-1]
        rows = np.flatnonzero((v[:, 0] >= lo) & (v[:, 0] <= hi))
        for column in range(1, v.shape[1]):
            if not rows.size:
                return
            part = v[rows, column]
            rows = rows[(part >= lo) & (part <= hi)]
        rows = rows[_multiset_signature(v[rows]) == self.signature]
        if rows.size:
            rows = rows[(np.sort(v[rows], axis=1) == self.sorted).all(1)]
            self.seen.update(int(h) for h in v[rows].view(np.uint64) @ self.coeff)

    def p_value(self) -> float:
        """K / M (K at least 1: the answer computes the outputs as given)."""
        return max(1, len(self.seen)) / arrangements(self.target)


def _multiset_signature(v: np.ndarray) -> np.ndarray:
    """Per row, a hash of its values that ignores their order: a sum of
    mixed words (rows that are rearrangements of each other share it)."""
    with np.errstate(over="ignore"):
        mixed = (v.view(np.uint64) ^ np.uint64(0x9E3779B97F4A7C15)) * np.uint64(0xBF58476D1CE4E5B9)
        mixed ^= mixed >> np.uint64(29)
        return (mixed * np.uint64(0x94D049BB133111EB)).sum(1)


def _assemble(term: T.Term, spec: Spec) -> list[str] | None:
    lines = T.compile_terms({spec.outputs[0]: term}, None, spec.inputs)
    return None if lines is None else lines + ["HALT"]
