"""Sketch-guided search for programs with loops.

Straight-line searches cannot express factorial or gcd, so this family fixes
a loop skeleton and enumerates only its holes. Three skeletons:

* recurrence:  u, v = U0, V0; while not EXIT(u, v): u, v = f(u, v, x), g(u, v, x)
  (factorial, gcd, popcount, integer log, digit sums, round up to 2^k, ...).
  f and g are one ALU operation over {u, v, inputs, small constants}. The
  holes are filled by a numba kernel that runs every f for a fixed (exit,
  init, g) on the examples, so millions of fillings are tried per second.
* array fold:  acc = A0; for i in range(n): acc = f(acc, mem[base + i])
  (sum, product, xor, max/min via a conditional move).
* array map:   for i in range(n): mem[dst + idx(i)] = h(mem[src + i]), with
  idx(i) = i or n-1-i (copy, reverse into a new array, negate, scale),
  and an in-place two-pointer reverse.

* branch:      if (p cc q) out = Y else out = X, X and Y one op each
  (comparisons to 0/1, min/max, abs, sign, clamps); tests over computed
  values and two-test decision lists are in `decisions.py`.

Array fillings are few, so each is assembled and run on the machine itself.
Every candidate is emitted as ordinary nCPU assembly with CMP/Jcc/JMP.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Iterator

import numpy as np
from numba import njit

from ncpu.isa import assemble
from ncpu.jitcache import install as _install_jit_cache
from ncpu.synth import vecops
from ncpu.synth.spec import Spec
from ncpu.synth.verify import matches, outputs_on, probe_inputs, run_examples

# Op codes of the kernel (0 = copy the first leaf).
OPS = ["COPY", "ADD", "SUB", "MUL", "DIV", "MOD", "AND", "OR", "XOR", "SHL", "SHR", "SAR", "NEG", "NOT"]
# Exit tests: (name, the Jcc that leaves the loop, reads (p, q) as leaf slots).
CONDITIONS = ["Z", "LE", "AE", "GE", "A", "G", "NZ", "L", "B"]
COUNT = len(CONDITIONS)  # not a flag test: a counted loop, `for _ in range(p)`
_JUMP = {"Z": "JZ", "LE": "JLE", "AE": "JAE", "GE": "JGE", "A": "JA", "G": "JG", "NZ": "JNZ", "L": "JL", "B": "JB"}
MAX_ITERATIONS = 64  # per example: enough for 32-bit bit loops and small counters
RECURRENCE_CONSTANTS = (0, 1, 2, -1, 10, 32)
RECURRENCE_SIBLINGS = 3  # fitting bodies yielded per loop skeleton (the first, then others)

_install_jit_cache()    # before the first decorator below: see ncpu.jitcache


@njit(cache=True, inline="always")
def _wrap(x):
    return ((x + 0x80000000) & 0xFFFFFFFF) - 0x80000000


@njit(cache=True)
def _apply(op, a, b):
    if op == 0:
        return a
    if op == 1:
        return _wrap(a + b)
    if op == 2:
        return _wrap(a - b)
    if op == 3:
        return _wrap(a * b)
    if op == 4 or op == 5:
        if b == 0:
            return 0 if op == 4 else a
        q = abs(a) // abs(b)
        q = _wrap(q if (a < 0) == (b < 0) else -q)
        return q if op == 4 else _wrap(a - q * b)
    if op == 6:
        return a & b
    if op == 7:
        return a | b
    if op == 8:
        return a ^ b
    ub = b & 0xFFFFFFFF
    if op == 9:
        return 0 if ub >= 32 else _wrap(a << ub)
    if op == 10:
        return 0 if ub >= 32 else _wrap((a & 0xFFFFFFFF) >> ub)
    if op == 11:
        return a >> min(ub, 63)
    if op == 12:
        return _wrap(-a)
    return ~a


@njit(cache=True)
def _exits(cond, p, q):
    d = _wrap(p - q)
    n = d < 0
    z = d == 0
    c = (p & 0xFFFFFFFF) >= (q & 0xFFFFFFFF)
    v = ((p < 0) != (q < 0)) and ((d < 0) != (p < 0))
    if cond == 0:
        return z
    if cond == 1:
        return z or n != v
    if cond == 2:
        return c
    if cond == 3:
        return n == v
    if cond == 4:
        return c and not z
    if cond == 5:
        return (not z) and n == v
    if cond == 6:
        return not z
    if cond == 7:
        return n != v
    return not c


@njit(cache=True)
def _search_f(fs, g, cond, p_slot, q_slot, u0_slot, v0_slot, leaves, wanted):
    """First f (row of fs) making the loop produce `wanted` in u (returns
    2*index) or in v (2*index+1) on every example; -1 if none.
    leaves[e] holds [u, v, x0, x1, ..., constants] for example e."""
    n_examples = leaves.shape[0]
    slots = leaves.shape[1]
    env = np.empty(slots, np.int64)
    for k in range(fs.shape[0]):
        u_ok = True
        v_ok = True
        for e in range(n_examples):
            for s in range(slots):
                env[s] = leaves[e, s]
            env[0] = leaves[e, u0_slot]
            env[1] = leaves[e, v0_slot]
            counter = env[p_slot]
            steps = 0
            while True:
                if cond == COUNT:
                    if counter <= 0:
                        break
                    counter -= 1
                elif _exits(cond, env[p_slot], env[q_slot]):
                    break
                steps += 1
                if steps > MAX_ITERATIONS:
                    break
                nu = _apply(fs[k, 0], env[fs[k, 1]], _apply(fs[k, 2], env[fs[k, 3]], env[fs[k, 4]]))
                env[1] = _apply(g[0], env[g[1]], _apply(g[2], env[g[3]], env[g[4]]))
                env[0] = nu
            if steps > MAX_ITERATIONS:
                u_ok = False
                v_ok = False
                break
            if env[0] != wanted[e]:
                u_ok = False
            if env[1] != wanted[e]:
                v_ok = False
            if not (u_ok or v_ok):
                break
        if u_ok:
            return 2 * k
        if v_ok:
            return 2 * k + 1
    return -1


def _expressions(slots: int, allowed: list[int], nested: bool = False) -> np.ndarray:
    """Expressions over the leaf slots as rows (outer, a, inner, b, c) meaning
    outer(a, inner(b, c)): one operation, or with `nested` exactly two.
    Deduplicated by their values on random leaf assignments (observational
    equivalence again), so u+v and v+u are tried once.

    The table depends on the slot count and the allowed ops only, and a
    worker process serves problem after problem: it is built once per
    process (read-only; the two-op table took 1.4 CPU-s to build, paid again
    by every problem that reached it, and after a cancel, since nothing in
    the build looks at a deadline)."""
    return _expression_table(slots, tuple(allowed), nested)


@functools.lru_cache(maxsize=32)
def _expression_table(slots: int, allowed: tuple[int, ...], nested: bool) -> np.ndarray:
    rng = np.random.default_rng(0)
    samples = rng.integers(-50, 50, size=(24, slots)).astype(np.int64)
    unary = [op for op in (12, 13) if op in allowed]
    binary = [op for op in range(1, 12) if op in allowed]
    one = [(0, a, 0) for a in range(slots)] + [(op, a, a) for op in unary for a in range(slots)]
    one += [(op, a, b) for op in binary for a in range(slots) for b in range(slots)]
    if nested:
        # Two-op forms: op1(a, op2(b, c)) with op2 a genuine operation.
        rows = [(o1, a, o2, b, c) for o1 in binary for a in range(slots) for (o2, b, c) in one if o2 != 0]
    else:
        rows = [(op, b, 0, c, 0) for op, b, c in one]  # inner COPY: op(b, c)
    table = np.array(rows, np.int64).reshape(-1, 5)
    inner = _apply_columns(table[:, 2], samples[:, table[:, 3]], samples[:, table[:, 4]])
    values = _apply_columns(table[:, 0], samples[:, table[:, 1]], inner)
    # One 64-bit hash per column (a random odd coefficient per sample; the
    # product wraps mod 2^64) instead of np.unique over whole columns, which
    # sorts rows of 24 values: same first-of-each-class rows, up to a
    # collision of two 64-bit hashes.
    coeff = rng.integers(1, 1 << 63, size=values.shape[0], dtype=np.uint64) | np.uint64(1)
    _, first = np.unique(coeff @ values.view(np.uint64), return_index=True)
    kept = table[np.sort(first)]
    kept.flags.writeable = False  # shared by every caller in this process
    return kept


def _apply_columns(ops: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """_apply for many expressions at once: column j uses ops[j]."""
    out = np.empty_like(a)
    for code in np.unique(ops):
        cols = ops == code
        name = OPS[code]
        if name == "COPY":
            out[:, cols] = a[:, cols]
        elif name in vecops.UNARY:
            out[:, cols] = vecops.UNARY[name](a[:, cols])
        else:
            out[:, cols] = vecops.BINARY[name](a[:, cols], b[:, cols])
    return out


def _allowed(spec: Spec) -> list[int]:
    imm = {"ADD": "ADDI", "AND": "ANDI", "OR": "ORI", "XOR": "XORI", "SHL": "SHLI", "SHR": "SHRI", "SAR": "SARI"}
    return [i for i, op in enumerate(OPS) if i == 0 or spec.allows(op) or (op in imm and spec.allows(imm[op]))]


def _emit_op(op: int, rd: str, a: str, b: str, a_const: bool, b_const: bool, scratch: str) -> list[str]:
    lines = []
    name = OPS[op]
    if name == "COPY":
        return [f"MOV {rd}, {a}"]  # a register or a constant alike
    if a_const:
        lines.append(f"MOV {scratch}, {a}")
        a = scratch
    if name in ("NEG", "NOT"):
        return lines + [f"{name} {rd}, {a}"]
    if b_const:
        value = int(b)
        fits = {"ADD": -16384 <= value <= 16383, "SUB": -16383 <= value <= 16384,
                "AND": -16384 <= value <= 16383, "OR": -16384 <= value <= 16383, "XOR": -16384 <= value <= 16383,
                "SHL": 0 <= value <= 31, "SHR": 0 <= value <= 31, "SAR": 0 <= value <= 31}.get(name, False)
        if fits:
            return lines + [f"{name} {rd}, {a}, {value}"]
        other = "R7" if scratch != "R7" else "R6"
        if a == scratch:  # both constants: fold through a second scratch
            lines.append(f"MOV {other}, {value}")
            return lines + [f"{name} {rd}, {a}, {other}"]
        lines.append(f"MOV {scratch}, {value}")
        b = scratch
    return lines + [f"{name} {rd}, {a}, {b}"]


def _emit_expr(row, rd: str, operand, scratch: str, inner_reg: str) -> list[str]:
    """outer(a, inner(b, c)) into rd; the inner value goes through inner_reg."""
    o1, a, o2, b, c = (int(x) for x in row)
    if o2 == 0:  # one operation: outer(a, b); COPY and unary ops never read b
        (ta, ca) = operand(a)
        (tb, cb) = operand(b) if o1 != 0 and OPS[o1] not in vecops.UNARY else ("0", True)
        return _emit_op(o1, rd, ta, tb, ca, cb, scratch)
    (tb, cb), (tc, cc) = operand(b), operand(c)
    lines = _emit_op(o2, inner_reg, tb, tc, cb, cc, scratch)
    if o1 == 0:
        return lines + [f"MOV {rd}, {inner_reg}"]
    ta, ca = operand(a)
    return lines + _emit_op(o1, rd, ta, inner_reg, ca, False, scratch)


def _recurrence_asm(spec, f, g, cond, p, q, u0, v0, out_v, constants) -> list[str] | None:
    free = [f"R{r}" for r in range(8) if r not in spec.inputs]
    if len(free) < (6 if cond == COUNT else 5):
        return None
    ru, rv, rt, rs, rw = free[:5]
    home = {0: ru, 1: rv} | {2 + i: f"R{r}" for i, r in enumerate(spec.inputs)}
    keep = int(g[0]) == 0 and int(g[1]) == 1  # v never changes: no update, and no v when nothing reads it
    v_unused = keep and not out_v and 1 not in (p, q) and 1 not in (int(f[1]), int(f[3]), int(f[4]))

    def operand(slot):
        if slot in home:
            return home[slot], False
        return str(constants[slot - 2 - len(spec.inputs)]), True

    def load(reg, slot):
        text, is_const = operand(slot)
        return f"MOV {reg}, {text}"

    if cond == COUNT:  # for _ in range(p): the counter gets its own register
        rc = free[5]
        lines = [load(ru, u0)] + ([] if v_unused else [load(rv, v0)]) + [load(rc, p), "loop:", f"CMP {rc}, 0", "JLE done"]
        lines += _emit_expr(f, rt, operand, rs, rw)
        lines += [] if keep else _emit_expr(g, rv, operand, rs, rw)
        lines += [f"MOV {ru}, {rt}", f"DEC {rc}", "JMP loop", "done:",
                  f"MOV R{spec.outputs[0]}, {rv if out_v else ru}", "HALT"]
        return lines
    lines = [load(ru, u0)] + ([] if v_unused else [load(rv, v0)]) + ["loop:"]
    pa, pc_ = operand(p)
    qa, qc = operand(q)
    if pc_:
        lines.append(f"MOV {rs}, {pa}")
        pa = rs
    lines.append(f"CMP {pa}, {qa}")
    lines.append(f"{_JUMP[CONDITIONS[cond]]} done")
    lines += _emit_expr(f, rt, operand, rs, rw)
    lines += [] if keep else _emit_expr(g, rv, operand, rs, rw)
    lines += [f"MOV {ru}, {rt}", "JMP loop", "done:", f"MOV R{spec.outputs[0]}, {rv if out_v else ru}", "HALT"]
    return lines


def search_recurrence(spec: Spec, deadline: float) -> Iterator[list[str]]:
    if spec.uses_memory or len(spec.outputs) != 1 or len(spec.inputs) > 3:
        return
    constants = list(dict.fromkeys(list(spec.constants) + list(RECURRENCE_CONSTANTS)))
    k = len(spec.inputs)
    slots = 2 + k + len(constants)
    leaves = np.zeros((len(spec.examples), slots), np.int64)
    for e, example in enumerate(spec.examples):
        leaves[e, 2:2 + k] = example.inputs
        leaves[e, 2 + k:] = constants
    wanted = np.array([e.outputs[0] for e in spec.examples], np.int64)
    allowed = _allowed(spec)
    if not (spec.allows("CMP") and spec.allows("JMP")):
        return
    single = _expressions(slots, allowed)
    inputs = list(range(2, 2 + k))
    zero, one = 2 + k + constants.index(0), 2 + k + constants.index(1)
    # Exit tests, most common first: a counter reaching zero, then u or v
    # reaching an input (or passing it).
    exits = [(0, 1, zero), (1, 1, zero), (0, 0, zero)]
    exits += [(c, s, x) for x in inputs for c in (2, 3, 4, 5) for s in (0, 1)]
    exits += [(c, 0, 1) for c in (0, 4, 5, 1)]
    exits += [(c, s, one) for c in (1, 0) for s in (0, 1)]  # u or v reaching 1 (halving loops)
    counted = [(COUNT, x, x) for x in inputs]  # for _ in range(x)
    primary = [(c, x) for c in (zero, one) for x in inputs] + [(a, b) for a in inputs for b in inputs if a != b]
    inits = primary + [i for i in itertools.product([zero, one] + inputs, inputs + [zero, one]) if i not in primary]
    # Starts from any constant (e.g. v0 = 32 for counting down bit positions).
    everything = list(range(2, slots))
    wide = [i for i in itertools.product(everything, everything) if i not in inits and i[0] != i[1]]
    # g must update the control value; try the ones that read v first.
    order = sorted(range(len(single)), key=lambda i: (1 not in single[i][[1, 3, 4]], single[i][0] == 0))
    single_g = single[order]
    # Rounds of growing cost: the common exits and starts with one-op f and
    # g, then a two-op f, then every exit and start, then a two-op g.
    common = (exits[:3], primary)
    # Cheapest first: one-op bodies with the common exits, counted loops,
    # every exit, the common exits from any start; then two-op f; every
    # start; two-op g; every exit from any start.
    # Second: u walks the input down to zero by a two-op step on u alone
    # (u & (u - 1), ...) while v counts with one of the first g (popcount, parity).
    walk = ([(0, 0, zero)], [(x, zero) for x in inputs])
    # First of all, loops that carry one value (v never changes: round up
    # to a power of two, double until past a limit), over every exit and start.
    rounds = [("1", "keep", exits + counted, inits), ("1", "1", *common), ("2u", "1s", *walk), ("1", "1", counted, inits), ("1", "1", exits[3:], primary),
              ("1", "1", exits[:3], wide),
              ("2", "1", *common), ("1", "1", exits, inits), ("1", "2", *common), ("2", "1", counted, inits),
              ("1", "1", exits, wide)]
    made = {"1": single, "1s": single_g[:40], "keep": single[(single[:, 0] == 0) & (single[:, 1] == 1)][:1]}
    for f_kind, g_kind, round_exits, round_inits in rounds:
        if {"2", "2u"} & {f_kind, g_kind} and "2" not in made:
            made["2"] = _expressions(slots, allowed, nested=True)
            made["2u"] = made["2"][(made["2"][:, 1] == 0) & (made["2"][:, 3] == 0)]  # op(u, op(u, c))
        fs, gs = made[f_kind], (single_g if g_kind == "1" else made[g_kind])
        for cond, p, q in round_exits:
            for u0, v0 in round_inits:
                for g in gs:
                    if time.monotonic() > deadline:
                        return
                    hit, start, first = _search_f(fs, g, cond, p, q, u0, v0, leaves, wanted), 0, None
                    # After a fit, a few more bodies of the same loop: loops
                    # fit few examples by chance too, and a second fit that
                    # behaves otherwise on probe inputs says so (siblings that
                    # behave alike are not sent: they would only cost checks).
                    for _ in range(RECURRENCE_SIBLINGS if hit >= 0 else 0):
                        lines = _recurrence_asm(spec, fs[start + hit // 2], g, cond, p, q, u0, v0, hit % 2 == 1,
                                                constants)
                        if lines is not None:
                            if first is None:
                                first = _probe_outputs(lines, spec)
                                yield lines
                            elif _probe_outputs(lines, spec) != first:
                                yield lines
                                break
                        start += hit // 2 + 1
                        if start >= len(fs) or (hit := _search_f(fs[start:], g, cond, p, q, u0, v0, leaves,
                                                                 wanted)) < 0:
                            break


def _probe_outputs(lines: list[str], spec: Spec) -> list[tuple]:
    return outputs_on("\n".join(lines), spec, probe_inputs(spec), max_steps=20_000)


def _run_ok(lines: list[str], spec: Spec) -> bool:
    words = assemble("\n".join(lines)).words
    return bool(matches(run_examples(words, spec, max_steps=20_000), spec).all())


def search_arrays(spec: Spec, deadline: float) -> Iterator[list[str]]:
    if not spec.uses_memory or len(spec.inputs) < 2:
        return
    roles = list(itertools.permutations(spec.inputs, 2))
    free = [f"R{r}" for r in range(8) if r not in spec.inputs]
    if len(free) < 5:
        return
    ri, rp, rx, racc, rq = free[:5]
    if spec.outputs and not any(e.memory_out for e in spec.examples):
        yield from _folds(spec, deadline, roles, ri, rp, rx, racc, rq)
    elif not spec.outputs:
        yield from _maps(spec, deadline, ri, rp, rx, racc, rq)


def _folds(spec, deadline, roles, ri, rp, rx, racc, rq):
    ops = ["ADD", "SUB", "MUL", "AND", "OR", "XOR", "MAX", "MIN", "MAXU", "MINU"]
    inits = [0, 1, -1, -(1 << 31), (1 << 31) - 1, "first"]
    for (base, n), op, init in itertools.product(roles, ops, inits):
        if time.monotonic() > deadline:
            return
        head = [f"LOAD {racc}, [R{base}+0]" if init == "first" else f"MOV {racc}, {init}", f"MOV {ri}, 0",
                "loop:", f"CMP {ri}, R{n}", "JGE done", f"ADD {rp}, R{base}, {ri}", f"LOAD {rx}, [{rp}+0]"]
        if op.startswith(("MAX", "MIN")):
            # Conditional move: keep acc unless x beats it.
            keep = {"MAX": "JLE", "MIN": "JGE", "MAXU": "JBE", "MINU": "JAE"}[op]
            body = [f"CMP {rx}, {racc}", f"{keep} skip", f"MOV {racc}, {rx}", "skip:"]
        else:
            body = [f"{op} {racc}, {racc}, {rx}"]
        lines = head + body + [f"INC {ri}", "JMP loop", "done:", f"MOV R{spec.outputs[0]}, {racc}", "HALT"]
        if _run_ok(lines, spec):
            yield lines


def _maps(spec, deadline, ri, rp, rx, racc, rq):
    # In-place two-pointer reverse: (base, n).
    for base, n in itertools.permutations(spec.inputs, 2):
        lines = [f"MOV {ri}, R{base}", f"ADD {rq}, R{base}, R{n}", f"DEC {rq}", "loop:", f"CMP {ri}, {rq}",
                 "JGE done", f"LOAD {rx}, [{ri}+0]", f"LOAD {racc}, [{rq}+0]", f"STORE {racc}, [{ri}+0]",
                 f"STORE {rx}, [{rq}+0]", f"INC {ri}", f"DEC {rq}", "JMP loop", "done:", "HALT"]
        if _run_ok(lines, spec):
            yield lines
    maps = [None] + [(op, c) for op in ("ADD", "MUL", "SUB", "XOR", "AND", "SHL", "SAR") for c in (1, 2, -1, 3)] + [("NEG", 0), ("NOT", 0)]
    triples = list(itertools.permutations(spec.inputs, 3)) if len(spec.inputs) >= 3 else []
    triples += [(s, s, n) for s, n in itertools.permutations(spec.inputs, 2)]
    for (src, dst, n), h, reverse in itertools.product(triples, maps, (False, True)):
        if time.monotonic() > deadline:
            return
        body = []
        if h is not None:
            body = [f"{h[0]} {rx}, {rx}"] if h[0] in ("NEG", "NOT") else _emit_op(OPS.index(h[0]), rx, rx, str(h[1]), False, True, racc)
        if reverse:
            index = [f"SUB {rq}, R{n}, {ri}", f"ADD {rq}, {rq}, R{dst}", f"STORE {rx}, [{rq}-1]"]
        else:
            index = [f"ADD {rq}, R{dst}, {ri}", f"STORE {rx}, [{rq}+0]"]
        lines = [f"MOV {ri}, 0", "loop:", f"CMP {ri}, R{n}", "JGE done", f"ADD {rp}, R{src}, {ri}",
                 f"LOAD {rx}, [{rp}+0]"] + body + index + [f"INC {ri}", "JMP loop", "done:", "HALT"]
        if _run_ok(lines, spec):
            yield lines


def search(spec: Spec, deadline: float, seed: int = 0) -> Iterator[list[str]]:
    from ncpu.synth import decisions

    # Each phase sets up tables before it looks at the deadline: none
    # starts once the deadline (or a cancel) has come.
    yield from search_arrays(spec, deadline)
    if time.monotonic() > deadline:
        return
    yield from search_branch(spec, deadline)
    found = False
    if time.monotonic() > deadline:
        return
    for lines in decisions.search(spec, deadline):
        found = True
        yield lines
    if time.monotonic() > deadline:
        return
    # Nested tests also when a simpler test fits: they are longer, so they
    # win only where nothing else fits, but as verified alternatives they
    # disagree with a simpler test that fits by chance (nlz(x) < nlz(y) is
    # `(x & ~y) >u y`; with 24 examples `x >=u y + y` fits as well), which
    # flags the answer or tells an oracle what to ask. Before the recurrence
    # (tens of CPU seconds on such a spec): once an oracle's answers rule
    # the simple tests out, the nested test is the answer (P11 with 64
    # examples: 1.2 s for the nested search, unsolved in 60 s behind the
    # recurrence). Only where every output is an input or a constant, since
    # its arms are copies: on the suite that adds 7 problems whose nested
    # fits are all exact or none (parity) — measured, not assumed.
    if found or decisions.arms_can_fit(spec):
        yield from decisions.search_nested(spec, deadline)
    yield from search_recurrence(spec, deadline)


def _taken(cond: int, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Vector form of _exits: does the jump with condition `cond` go?"""
    d = vecops.wrap(p - q)
    n, z = d < 0, d == 0
    c = vecops.unsigned(p) >= vecops.unsigned(q)
    v = ((p < 0) != (q < 0)) & ((d < 0) != (p < 0))
    return [z, z | (n != v), c, n == v, c & ~z, ~z & (n == v), ~z, n != v, ~c][cond]


BRANCH_ALTERNATIVES = 3  # fitting branch programs yielded after the simplest


def search_branch(spec: Spec, deadline: float) -> Iterator[list[str]]:
    """if (p cc q) outs = Y else outs = X, each output's X and Y one ALU op
    over the inputs and small constants: comparisons, min/max, abs, sign,
    clamps, and several outputs under one test (min and max at once)."""
    if spec.uses_memory or not 1 <= len(spec.outputs) <= 3 or not spec.inputs or not spec.allows("CMP"):
        return
    constants = list(dict.fromkeys(list(spec.constants) + [0, 1, -1, 2, 31]))
    k = len(spec.inputs)
    E = len(spec.examples)
    leaves = np.zeros((E, 2 + k + len(constants)), np.int64)  # slots 0, 1 unused (u, v)
    for e, example in enumerate(spec.examples):
        leaves[e, 2:2 + k] = example.inputs
        leaves[e, 2 + k:] = constants
    rows = _expressions(leaves.shape[1], _allowed(spec))
    # Only expressions over inputs and constants (slots 0 and 1 are u and v);
    # one-op rows read slot 1 and, unless the op is unary, slot 3.
    rows = rows[(rows[:, 1] >= 2) & ((rows[:, 3] >= 2) | np.isin(rows[:, 0], [0, 12, 13]))]
    inner = _apply_columns(rows[:, 2], leaves[:, rows[:, 3]], leaves[:, rows[:, 4]])
    values = _apply_columns(rows[:, 0], leaves[:, rows[:, 1]], inner)  # [E, n]
    hits = [values == np.array([e.outputs[o] for e in spec.examples], np.int64)[:, None]
            for o in range(len(spec.outputs))]
    free = [r for r in range(7, -1, -1) if r not in spec.inputs]
    scratch = f"R{free[0]}"
    if len(spec.outputs) == 1:
        homes = [f"R{spec.outputs[0]}"]
    elif len(free) > len(spec.outputs):  # arms write temporaries, moved out at the end
        homes = [f"R{r}" for r in free[1:1 + len(spec.outputs)]]
    else:
        return

    def operand(slot):
        return (f"R{spec.inputs[slot - 2]}", False) if slot < 2 + k else (str(constants[slot - 2 - k]), True)

    # Score every condition and keep the simplest arms (lowest row numbers:
    # copies first, then unary, then binary ops): simpler programs
    # generalise better than the first fit.
    fits = []
    for p in range(2, 2 + k):
        for q in range(2, leaves.shape[1]):
            for cond in range(len(CONDITIONS)):
                if time.monotonic() > deadline:
                    return
                taken = _taken(cond, leaves[:, p], leaves[:, q])
                if taken.all() or not taken.any():
                    continue
                arms, score = [], int(q >= 2 + k)
                for hit in hits:
                    then_ok = hit[taken].all(0)
                    else_ok = hit[~taken].all(0)
                    if not (then_ok.any() and else_ok.any()):
                        break
                    score += int(np.argmax(then_ok)) + int(np.argmax(else_ok))
                    arms.append((rows[np.argmax(then_ok)], rows[np.argmax(else_ok)]))
                else:
                    fits.append((score, p, q, cond, arms))
    # The simplest fit first, then a few others with another test: when the
    # examples leave the test open (sign without 0 among them: x < 0 or
    # x <= 0), the portfolio sees verified programs that disagree off the
    # examples and says the answer is only consistent with them.
    fits.sort(key=lambda fit: fit[0])
    for _, p, q, cond, arms in fits[:1 + BRANCH_ALTERNATIVES]:
        qa, _ = operand(q)
        lines = [f"CMP R{spec.inputs[p - 2]}, {qa}", f"{_JUMP[CONDITIONS[cond]]} then"]
        for (y, x), home in zip(arms, homes):
            lines += _emit_expr(x, home, operand, scratch, scratch)
        lines += ["JMP end", "then:"]
        for (y, x), home in zip(arms, homes):
            lines += _emit_expr(y, home, operand, scratch, scratch)
        lines += ["end:"]
        if len(spec.outputs) > 1:
            lines += [f"MOV R{r}, {home}" for r, home in zip(spec.outputs, homes)]
        yield lines + ["HALT"]
