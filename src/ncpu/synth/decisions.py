"""Branches whose tests compare computed values, and two-test decision lists.

`loops.search_branch` tests an input against an input or a constant. Many
classic problems test a *computed* value: nlz(x) == nlz(y) is
(x ^ y) <=u (x & y), and "cycle through three values" is two equality
tests in a row. This module splits the examples by a test and asks for an
arm on each side (divide and conquer over the examples), all conditions at
once as matrix products:

* one test:   if (P cc Q) out = Y else out = X; P and Q one operation over
  the inputs (or an input, or Q a constant); X and Y one operation over the
  inputs and small constants;
* two tests:  if (p1 cc q1) out = Y1 elif (p2 cc q2) out = Y2 else out = X;
  p, q inputs or constants, arms copies of inputs or constants.

For each condition, arm r fits a side when it mismatches the target on none
of that side's examples: mismatches [R, C] = (arm != target)^T @ taken. The
simplest fitting program wins (fewest and lowest-numbered pieces: copies,
then unary, then binary operations).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np

from ncpu.synth.loops import CONDITIONS, _JUMP, _allowed, _apply_columns, _emit_expr, _expressions, _taken
from ncpu.synth.spec import Spec
from ncpu.synth.verify import domain_inputs, outputs_on, probe_inputs

_CHUNK = 4096  # conditions per matrix product
_CONSTANTS = (0, 1, -1, 2, 31)
_IMM15 = range(-(1 << 14), 1 << 14)
_COSTLY = [3, 4, 5]  # MUL, DIV, MOD in loops.OPS
_KEPT = 8  # fitting one-test programs kept per condition chunk, and compared on probe inputs
# Nested tests fit many ways (24 examples of nlz(x) < nlz(y): 40 and more,
# the intended `(x & ~y) >u y` the 28th by simplicity): more are compared.
_NESTED_KEPT = 32
_DIFFERENT = 3  # programs sent per search: the simplest and the next that differ
# ... for nested tests: their fits differ in many ways, and each program
# sent is one an oracle's answer can rule out in the same round (with 3,
# P11's rounds ended with every program sent agreeing while the intended
# test was still not among them).
_NESTED_DIFFERENT = 8


def search(spec: Spec, deadline: float) -> Iterator[list[str]]:
    """One test over computed values, and two-test lists over inputs."""
    ctx = _context(spec)
    if ctx is None:
        return
    # With three or four inputs the one-test space is large: try the
    # two-test lists over plain inputs first.
    for attempt in [ctx.one_test, ctx.two_tests] if ctx.k < 3 else [ctx.two_tests, ctx.one_test]:
        programs = attempt(deadline)
        for lines in programs or []:
            yield lines


def search_nested(spec: Spec, deadline: float) -> Iterator[list[str]]:
    """One test whose P is two operations over the inputs; arms are copies.
    (The caller runs it last: such tests fit noise easily.)"""
    ctx = _context(spec)
    if ctx is not None:
        yield from ctx.nested_test(deadline) or []


def arms_can_fit(spec: Spec) -> bool:
    """Could a nested test fit at all? Its arms are copies of an input or a
    constant, so every example's output must be one of those."""
    if spec.uses_memory or len(spec.outputs) != 1:
        return False
    constants = set(spec.constants) | set(_CONSTANTS)
    return all(e.outputs[0] in constants or e.outputs[0] in e.inputs for e in spec.examples)


def _context(spec: Spec):
    if spec.uses_memory or len(spec.outputs) != 1 or not 1 <= len(spec.inputs) <= 4 or not spec.allows("CMP"):
        return None
    return _Context(spec)


class _Context:
    def __init__(self, spec: Spec):
        self.spec = spec
        self.constants = list(dict.fromkeys(list(spec.constants) + list(_CONSTANTS)))
        k = self.k = len(spec.inputs)
        E = len(spec.examples)
        leaves = np.zeros((E, 2 + k + len(self.constants)), np.int64)  # slots 0, 1 unused (as in loops)
        for e, example in enumerate(spec.examples):
            leaves[e, 2:2 + k] = example.inputs
            leaves[e, 2 + k:] = self.constants
        rows = _expressions(leaves.shape[1], _allowed(spec))
        rows = rows[(rows[:, 1] >= 2) & ((rows[:, 3] >= 2) | np.isin(rows[:, 0], [0, 12, 13]))]
        self.leaves, self.rows = leaves, rows
        self.values = _apply_columns(rows[:, 2], leaves[:, rows[:, 3]], leaves[:, rows[:, 4]])
        self.values = _apply_columns(rows[:, 0], leaves[:, rows[:, 1]], self.values)  # [E, R]
        self.target = np.array([e.outputs[0] for e in spec.examples], np.int64)
        # Condition operands: expressions over inputs only (no constants).
        inputs_only = (rows[:, 1] < 2 + k) & ((rows[:, 3] < 2 + k) | np.isin(rows[:, 0], [0, 12, 13]))
        self.p_rows = np.flatnonzero(inputs_only)
        self.q_rows = np.concatenate([self.p_rows, np.flatnonzero((rows[:, 0] == 0) & (rows[:, 1] >= 2 + k))])
        free = [r for r in range(7, -1, -1) if r not in spec.inputs]
        self.regs = [f"R{r}" for r in free]

    # -- one test over computed values ------------------------------------------

    def one_test(self, deadline: float, p_rows=None, arms=None, kept: int = _KEPT,
                 different: int = _DIFFERENT) -> list[list[str]] | None:
        """The simplest one-test program, with P over `p_rows` (default: one
        operation over the inputs) and arms over `arms` (default: all rows);
        then, if one of the next simplest fitting programs computes
        something else on the probe inputs, that one too (the examples
        underdetermine the answer)."""
        p_rows = self.p_rows if p_rows is None else p_rows
        arms = np.arange(len(self.rows)) if arms is None else arms
        V, t = self.values, self.target
        mismatch = (V[:, arms] != t[:, None]).astype(np.float32).T  # [A, E]
        P, Q = self._p_values(p_rows), V[:, self.q_rows]  # [E, p], [E, q]
        pairs = np.array([(i, j) for i in range(P.shape[1]) for j in range(Q.shape[1])
                          if p_rows[i] != self.q_rows[j] or p_rows is not self.p_rows], np.int64).reshape(-1, 2)
        found = []  # (score, p index, q row, condition, then arm, else arm)
        for cond in range(len(CONDITIONS)):
            for start in range(0, len(pairs), _CHUNK):
                if time.monotonic() > deadline:
                    return None
                chunk = pairs[start:start + _CHUNK]
                taken = np.asarray(_taken(cond, P[:, chunk[:, 0]], Q[:, chunk[:, 1]]))  # [E, C]
                split = taken.any(0) & ~taken.all(0)
                if not split.any():
                    continue
                then_ok = (mismatch @ taken.astype(np.float32)) == 0  # [A, C]
                else_ok = (mismatch @ (~taken).astype(np.float32)) == 0
                fits = split & then_ok.any(0) & else_ok.any(0)
                if not fits.any():
                    continue
                y, x = then_ok.argmax(0), else_ok.argmax(0)  # the simplest fitting arms
                score = np.where(fits, chunk[:, 0] + chunk[:, 1] + y + x, np.iinfo(np.int64).max)
                for c in np.argsort(score)[:kept]:
                    if fits[c]:
                        found.append((int(score[c]), int(chunk[c, 0]), int(self.q_rows[chunk[c, 1]]), cond,
                                      int(arms[y[c]]), int(arms[x[c]])))
        if not found:
            return None
        programs = []
        for _, p, q, cond, y, x in sorted(found)[:kept]:
            lines = self._emit([(("nested", int(p_rows[p])) if p_rows is not self.p_rows else int(p_rows[p]),
                                 q, cond, y)], x)
            if lines is not None:
                programs.append(lines)
        return self._best_and_different(programs, different)

    def _best_and_different(self, programs: list[list[str]], different: int) -> list[list[str]] | None:
        """The first program, and the next ones (up to `different` in all) that
        each compute something else than those before on the probe inputs
        and inputs drawn like the examples: rivals an oracle's answer can
        rule out, or that flag the first as underdetermined."""
        if not programs:
            return None
        inputs = probe_inputs(self.spec) + domain_inputs(self.spec, 64)
        chosen, behaviours = [], []
        for lines in programs:
            behaviour = outputs_on("\n".join(lines), self.spec, inputs)
            if behaviour not in behaviours:
                chosen.append(lines)
                behaviours.append(behaviour)
                if len(chosen) == different:
                    break
        return chosen

    def _p_values(self, p_rows) -> np.ndarray:
        if p_rows is self.p_rows:
            return self.values[:, p_rows]
        return self.nested_values

    def nested_test(self, deadline: float) -> list[list[str]] | None:
        """One test whose P is two operations over the inputs (x & ~y), arms copies."""
        spec, k = self.spec, self.k
        slots = self.leaves.shape[1]
        nested = _expressions(slots, _allowed(spec), nested=True)
        only_inputs = (nested[:, 1] >= 2) & (nested[:, 1] < 2 + k) & (nested[:, 3] >= 2) & (nested[:, 3] < 2 + k) \
            & ((nested[:, 4] >= 2) & (nested[:, 4] < 2 + k) | np.isin(nested[:, 2], [12, 13]))
        nested = nested[only_inputs]
        # Occam on components: the fits come simplest first (lowest row
        # numbers), so rows using MUL, DIV or MOD go after the rest (nlz(x)
        # < nlz(y) is `(x & ~y) >u y`; a DIV of the inputs fits 24 examples
        # of it as well and came first).
        costly = np.isin(nested[:, 0], _COSTLY).astype(np.int64) + np.isin(nested[:, 2], _COSTLY)
        self.nested = nested = nested[np.argsort(costly, kind="stable")]
        inner = _apply_columns(nested[:, 2], self.leaves[:, nested[:, 3]], self.leaves[:, nested[:, 4]])
        self.nested_values = _apply_columns(nested[:, 0], self.leaves[:, nested[:, 1]], inner)
        copies = np.flatnonzero(self.rows[:, 0] == 0)
        return self.one_test(deadline, p_rows=np.arange(len(nested)), arms=copies, kept=_NESTED_KEPT,
                             different=_NESTED_DIFFERENT)

    # -- two tests over inputs and constants ------------------------------------

    def two_tests(self, deadline: float) -> list[list[str]] | None:
        k, slots = self.k, self.leaves.shape[1]
        copies = np.flatnonzero(self.rows[:, 0] == 0)  # arms: copies of inputs and constants
        mismatch = (self.values[:, copies] != self.target[:, None]).astype(np.float32).T  # [A, E]
        tests = [(p, q, cond) for p in range(2, 2 + k) for q in range(2, slots) if p != q
                 for cond in range(len(CONDITIONS))]
        taken = np.stack([_taken(cond, self.leaves[:, p], self.leaves[:, q]) for p, q, cond in tests], 1)  # [E, T]
        takenf, restf = taken.astype(np.float32), (~taken).astype(np.float32)
        best = None
        for i, (p1, q1, c1) in enumerate(tests):
            if time.monotonic() > deadline:
                return None
            first = taken[:, i]
            if first.all() or not first.any():
                continue
            then1 = mismatch @ takenf[:, i] == 0
            if not then1.any():
                continue
            rest = ~first
            then2 = (mismatch @ (takenf * rest[:, None])) == 0  # [A, T]
            else2 = (mismatch @ (restf * rest[:, None])) == 0
            split = (taken & rest[:, None]).any(0) & (~taken & rest[:, None]).any(0)
            fits = np.flatnonzero(split & then2.any(0) & else2.any(0))
            for j in fits:
                y1, y2, x = int(np.argmax(then1)), int(np.argmax(then2[:, j])), int(np.argmax(else2[:, j]))
                score = i + int(j) + y1 + y2 + x
                if best is None or score < best[0]:
                    p2, q2, c2 = tests[j]
                    best = (score, [(p1, q1, c1, int(copies[y1])), (p2, q2, c2, int(copies[y2]))], int(copies[x]))
        if best is None:
            return None
        # Leaves as one-op rows: the copy row of each slot.
        copy_row = {int(self.rows[r, 1]): int(r) for r in copies}
        tests = [(copy_row[p], copy_row[q], cond, y) for p, q, cond, y in best[1]]
        lines = self._emit(tests, best[2])
        return None if lines is None else [lines]

    # -- assembly ------------------------------------------------------------------

    def _operand(self, slot: int) -> tuple[str, bool]:
        k = self.k
        return (f"R{self.spec.inputs[slot - 2]}", False) if slot < 2 + k else (str(self.constants[slot - 2 - k]), True)

    def _value_reg(self, row: int, reg: str, scratch: str) -> tuple[list[str], str]:
        """Code leaving expression `row` in a register (an input's own when it is one), and that register."""
        op, a = int(self.rows[row, 0]), int(self.rows[row, 1])
        text, is_const = self._operand(a)
        if op == 0 and not is_const:
            return [], text
        return _emit_expr(self.rows[row], reg, self._operand, scratch, scratch), reg

    def _emit(self, tests: list[tuple[int, int, int, int]], otherwise: int) -> list[str] | None:
        """tests: (p row, q row, condition, arm row) in order; `otherwise` the last arm."""
        if len(self.regs) < 3:
            return None
        rp, rq, scratch = self.regs[:3]
        home = f"R{self.spec.outputs[0]}"
        lines: list[str] = []
        for n, (p, q, cond, _) in enumerate(tests):
            if isinstance(p, tuple):  # two operations over the inputs
                code, a = _emit_expr(self.nested[p[1]], rp, self._operand, scratch, scratch), rp
            else:
                code, a = self._value_reg(p, rp, scratch)
            lines += code
            q_op, q_slot = int(self.rows[q, 0]), int(self.rows[q, 1])
            text, is_const = self._operand(q_slot)
            if q_op == 0 and is_const and int(text) in _IMM15:
                b = text
            else:
                code, b = self._value_reg(q, rq, scratch)
                lines += code
            lines += [f"CMP {a}, {b}", f"{_JUMP[CONDITIONS[cond]]} arm{n}"]
        lines += _emit_expr(self.rows[otherwise], home, self._operand, scratch, scratch) + ["JMP end"]
        for n, (_, _, _, arm) in enumerate(tests):
            lines += [f"arm{n}:"] + _emit_expr(self.rows[arm], home, self._operand, scratch, scratch) + ["JMP end"]
        return lines[:-1] + ["end:", "HALT"]


__all__ = ["arms_can_fit", "search", "search_nested"]
