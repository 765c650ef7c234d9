"""Bottom-up enumeration with observational-equivalence pruning.

Terms are built by size from the leaves (inputs, constants, memory loads).
Two terms that give the same values on every example are interchangeable in
any larger term, so only the first (smallest) of each value vector is kept.
Each (op, size-i bank, size-j bank) pairing is evaluated as one numpy
broadcast, and value vectors are compared by a 64-bit hash, so a level of
millions of candidates costs a few array passes, not millions of Python calls.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np

from ncpu.synth import macros
from ncpu.synth.budget import CpuBudget
from ncpu.synth import residuals as RS
from ncpu.synth import terms as T
from ncpu.synth import vecops
from ncpu.synth.spec import Spec
from ncpu.isa.semantics import wrap
from ncpu.synth.verify import initial_batch, probe_inputs

DEFAULT_CONSTANTS = (0, 1, 2, 3, 4, 8, 16, 24, 31, -1, 255)


def constants_for(spec: Spec) -> list[int]:
    """The spec's constants, or the default pool plus constants the examples
    suggest: an output that is the same everywhere, or an output that is a
    fixed offset or XOR away from an input (x + 1000, x ^ 0x5A5A)."""
    if spec.constants:
        return list(dict.fromkeys(spec.constants))
    found = list(DEFAULT_CONSTANTS)
    for j in range(len(spec.outputs)):
        outs = [e.outputs[j] for e in spec.examples]
        candidates = [outs]
        for i in range(len(spec.inputs)):
            ins = [e.inputs[i] for e in spec.examples]
            candidates.append([wrap(o - x) for o, x in zip(outs, ins)])
            candidates.append([o ^ x for o, x in zip(outs, ins)])
        for values in candidates:
            if len(set(values)) == 1:
                found.append(values[0])
    return list(dict.fromkeys(found))
_CHUNK = 1 << 19  # candidate rows evaluated per broadcast
PROBES = 24  # extra inputs a single-output search also evaluates (see `search`)
ALTERNATIVE_SECONDS = 0.15  # after a solution, how long (CPU) to look for one that differs off the examples
MEET_AHEAD = 4  # a met term at most this much larger than the enumerated sizes is reported at once
MEET_PATIENCE = 0.2  # after reporting it, how long (CPU) to look for a smaller term (inside the portfolio's grace)
LARGE_MEET_PATIENCE = 1.5  # how long (CPU) a larger met term waits for a regular find before it is reported
MET_POOL = 32  # met pairs and residual hits kept per target, to look for one that differs off the examples
LEVEL_CAP = 400_000  # terms kept per size; beyond it only targets are checked
# Order of the operations within a level, cheapest first: bitwise ops need
# no wrap, shifts and ADD/SUB one, MUL a wide product, DIV/MOD several passes.
_EXPENSIVE = {"SHL": 1, "SHR": 1, "SAR": 1, "ADD": 1, "SUB": 1, "MUL": 2, "DIV": 3, "MOD": 3, "MULHU": 4}
_SCREEN = 1 << 22  # bits in the residual screen
PROMOTE_FROM_SIZE = 6  # the first phase enumerates to this size, and promotes terms up to it
PROMOTE_TOP = 2  # terms promoted (each with its subterms)
PROMOTE_MAX = 8  # promoted leaves at most
PROMOTE_CPU_SECONDS, PROMOTE_SHARE = 1.5, 0.5  # the promoted phase's budget: CPU seconds, at most this share of what is left
RESIDUAL_DEPTH = 2  # invertible layers peeled off a register target (`synth/residuals.py`)


def allowed_ops(spec: Spec) -> tuple[list[str], list[str]]:
    imm = {"ADD": "ADDI", "SUB": "ADDI", "AND": "ANDI", "OR": "ORI", "XOR": "XORI",
           "SHL": "SHLI", "SHR": "SHRI", "SAR": "SARI"}
    binary = [op for op in vecops.BINARY if spec.allows(op) or (op in imm and spec.allows(imm[op]))]
    unary = [op for op in vecops.UNARY if spec.allows(op)]
    return binary, unary


def targets_of(spec: Spec, regs: np.ndarray) -> list[tuple]:
    """("reg", r, values) per output register and ("mem", base term, offset,
    values) per memory_out cell, with the cell's address written as an input
    register plus a constant (or an absolute address)."""
    targets = [("reg", r, np.array([e.outputs[i] for e in spec.examples], np.int64))
               for i, r in enumerate(spec.outputs)]
    first = spec.examples[0].memory_out
    for region_index, (_, values) in enumerate(first):
        for offset in range(len(values)):
            addresses = np.array([e.memory_out[region_index][0] + offset for e in spec.examples], np.int64)
            wanted = np.array([e.memory_out[region_index][1][offset] for e in spec.examples], np.int64)
            base = None
            for r in spec.inputs:
                delta = addresses - regs[r]
                if (delta == delta[0]).all() and -(1 << 14) <= delta[0] < (1 << 14):
                    base = (T.inp(r), int(delta[0]))
                    break
            if base is None and (addresses == addresses[0]).all() and addresses[0] < (1 << 14):
                base = (T.const(0), int(addresses[0]))
            if base is None:
                return []  # an address we cannot express in straight-line code
            targets.append(("mem", base[0], base[1], wanted))
    return targets


class _Bank:
    """Terms of one size: values [n, E], their hashes [n] and how each was built."""

    def __init__(self, values, hashes, op, left, right):
        self.values, self.hashes, self.op, self.left, self.right = values, hashes, op, left, right


# Meeting in the middle: a target T = op(V, N) for a known term V needs
# N = inverse(T, V); when N's values are those of a known term, the pair is
# found as soon as both halves exist, not when the whole size is reached.
# (name of the pairing, the needed N from T and V, the op and operand order)
_INVERSES = (
    ("ADD", lambda t, v: t - v, "ADD", False),  # v + n = t
    ("XOR", lambda t, v: t ^ v, "XOR", False),  # v ^ n = t
    ("SUB", lambda t, v: v - t, "SUB", False),  # v - n = t
    ("RSUB", lambda t, v: t + v, "SUB", True),  # n - v = t
)


def search(spec: Spec, deadline: float, seed: int = 0, max_size: int = 12,
           linger: float | None = None) -> Iterator[list[str]]:
    """Yields programs for `spec`. `linger` (seconds; default the module's
    short waits) is how long the search goes on after its first program to
    find a smaller one or one that differs off the examples.

    If nothing fits by PROMOTE_FROM_SIZE, a short run with *promoted*
    leaves (`_promoted`) comes in between, then the enumeration goes on."""
    yield from _enumerate(spec, deadline, seed, max_size, linger, promote=True)


def _promoted_phase(spec: Spec, deadline, seed: int, max_size: int, linger,
                    terms: list[T.Term]) -> Iterator[list[str]]:
    """The run with promoted leaves. Its budget is PROMOTE_CPU_SECONDS of
    this process's CPU time, and at most PROMOTE_SHARE of the wall time
    that is left."""
    now = time.monotonic()
    until = CpuBudget(deadline, PROMOTE_CPU_SECONDS, now + PROMOTE_SHARE * (deadline - now))
    yield from _enumerate(spec, until, seed, max_size, linger, extra_leaves=terms)


def _promoted(target: np.ndarray, banks: dict, term, E: int) -> list[T.Term]:
    """Let-bound subterms for a second run: the PROMOTE_TOP terms of sizes
    2..PROMOTE_FROM_SIZE that agree with the target on the most high bits
    (fewest leading bits of `target ^ term` set, summed over the examples),
    with their subterms. A term that explains most of the target's bits
    likely shares structure with the rest of the program (P20:
    `r = x + (x & -x)` holds all but the lowest bits of the answer, and
    `x & -x` is its divisor); as leaves they cost one node each, and the
    compiled program computes each once."""
    scored = []
    for size in range(2, PROMOTE_FROM_SIZE + 1):
        if size not in banks:
            continue
        diff = (banks[size].values[:, :E] ^ target[None, :]) & 0xFFFFFFFF
        # frexp's exponent of a positive integer below 2^53 is its bit length
        # (0 for 0): the leading bits of T ^ L that are 0 are 32 minus it,
        # summed over the examples. (Cheaper than log2 and ceil.)
        total = 32 * E - np.frexp(diff.astype(np.float64))[1].sum(1, dtype=np.int64)
        # The PROMOTE_TOP best, ties by index (a stable sort's first ones),
        # without sorting the whole level.
        kth = np.partition(-total, PROMOTE_TOP - 1)[PROMOTE_TOP - 1] if len(total) > PROMOTE_TOP else 0
        top = np.flatnonzero(-total <= kth) if len(total) > PROMOTE_TOP else np.arange(len(total))
        top = top[np.lexsort((top, -total[top]))][:PROMOTE_TOP]
        scored += [(int(total[i]), size, int(i)) for i in top]
    chosen: list[T.Term] = []
    for _, size, i in sorted(scored, key=lambda item: (-item[0], item[1]))[:PROMOTE_TOP]:
        stack = [term(size, i)]
        while stack:
            t = stack.pop()
            if t.kind in ("unary", "binary") and t not in chosen:
                chosen.append(t)
                stack += list(t.args)
    return chosen[:PROMOTE_MAX]


def _enumerate(spec: Spec, deadline: float, seed: int = 0, max_size: int = 12, linger: float | None = None,
               extra_leaves: list[T.Term] = (), promote: bool = False) -> Iterator[list[str]]:
    """One bottom-up run; `extra_leaves` are terms used as leaves. With
    `promote`, a run that has found nothing (not even a met pair) once
    PROMOTE_FROM_SIZE is enumerated runs the promoted phase; if that finds
    nothing, it goes on where it was (single register targets with many
    distinct values only)."""
    if spec.examples[0].memory_out and any(len(e.memory_out) != len(spec.examples[0].memory_out)
                                           or [len(v) for _, v in e.memory_out] != [len(v) for _, v in spec.examples[0].memory_out]
                                           for e in spec.examples):
        return
    batch = initial_batch(spec)
    regs = batch.registers.T.astype(np.int64)  # [8, E]
    memory = batch.memory.astype(np.int64)
    E = regs.shape[1]
    targets = targets_of(spec, regs)
    if not targets:
        return
    # One register output: terms are also evaluated on probe inputs (columns
    # E.. of every value vector) that the examples do not cover. Terms equal
    # on the examples but not on the probes stay apart, so a second program
    # that fits every example and behaves otherwise is found and reported too
    # (the portfolio then says the examples underdetermine the answer).
    want_alternative = PROBES > 0 and len(targets) == 1 and targets[0][0] == "reg" and not spec.uses_memory
    if want_alternative:
        probes = np.zeros((regs.shape[0], PROBES), np.int64)
        probes[list(spec.inputs)] = np.array(probe_inputs(spec, PROBES), np.int64).T.reshape(len(spec.inputs), PROBES)
        regs = np.concatenate([regs, probes], 1)  # [8, E + P]
    binary, unary = allowed_ops(spec)
    binary = binary + macros.allowed(spec)  # larger components (`synth/macros.py`), enumerated last in a level
    op_names = binary + unary
    rng = np.random.default_rng(seed)
    coeff = rng.integers(1, 1 << 63, size=regs.shape[1], dtype=np.uint64) | np.uint64(1)
    coeff_examples = coeff.copy()
    coeff_examples[E:] = 0  # the hash of the example columns alone

    def hash_rows(rows: np.ndarray) -> np.ndarray:
        # Same bits as uint64 (no copy); an integer matrix-vector product
        # wraps mod 2^64 like the sum of products it stands for.
        return rows.view(np.uint64) @ coeff

    def hash_examples(rows: np.ndarray) -> np.ndarray:
        """Hashes of the example columns of rows [n, >= E] (all of them without probes)."""
        if not want_alternative:
            return hash_rows(rows)
        return rows[:, :E].view(np.uint64) @ coeff_examples[:E]

    # Size-1 terms: the leaves, kept as Term objects (few of them).
    leaves: list[T.Term] = [T.inp(r) for r in spec.inputs]
    leaves += [T.const(c) for c in constants_for(spec)]
    if spec.uses_memory:
        leaves += [T.load(r, k) for r in spec.inputs for k in range(8)]
    leaves += list(extra_leaves)
    leaf_values = np.stack([T.evaluate(t, regs, memory) for t in leaves])
    leaf_hash = hash_rows(leaf_values)
    _, keep = np.unique(leaf_hash, return_index=True)
    keep = np.sort(keep)
    leaves = [leaves[i] for i in keep]
    banks: dict[int, _Bank] = {1: _Bank(leaf_values[keep], leaf_hash[keep], None, None, None)}
    seen = np.sort(leaf_hash[keep])
    target_hash = [hash_examples(t[-1][None, :])[0] for t in targets]
    found: dict[int, tuple] = {}  # target index -> (size, index) or (size, op, a-size, a-index, b-size, b-index)
    found_full: dict[int, np.uint64] = {}  # target index -> full hash (examples and probes) of what was found
    alternative: dict[int, tuple] = {}  # a term equal on the examples, not on the probes
    state = {"solved_at": None}

    met: dict[int, tuple[int, tuple]] = {}  # target index -> (size, description) found by `meet`
    # Every met pair and residual hit seen (a few per target), to find one
    # that fits the examples but behaves otherwise on the probes: a met term
    # is large, and large terms fit examples by chance.
    met_pool: dict[int, list[tuple[int, tuple]]] = {}

    def offer_met(ti: int, total: int, desc: tuple) -> None:
        # At equal size a met pair beats a residual hit: the hit waits for
        # enumeration to nearly reach its size, the pair is reported at once.
        if ti not in met or (total, desc[0] == "resid") < (met[ti][0], met[ti][1][0] == "resid"):
            met[ti] = (total, desc)
        pool = met_pool.setdefault(ti, [])
        if len(pool) < MET_POOL:
            pool.append((total, desc))

    def finished() -> bool:
        if len(found) < len(targets):
            # A met pair ends the search once no smaller term can come, or
            # after some patience for one.
            if len(set(found) | set(met)) < len(targets):
                return False
            if state.get("met_at") is None:  # patience in CPU time, like ALTERNATIVE_SECONDS below
                state["met_at"] = time.process_time()
            patience = MEET_PATIENCE if state.get("met_yielded") else LARGE_MEET_PATIENCE
            patience = patience if linger is None else max(patience, linger)
            # Without a program that differs off the examples, the met term's
            # own level is built too (within the patience): a term of the
            # same size there may fit the examples and behave otherwise
            # (x + x met at once, x * x in level 3).
            largest = max(t for t, _ in met.values())
            done = size + 1 >= largest if not want_alternative or "met_alternative" in state else largest in banks
            return done or time.process_time() > state["met_at"] + patience
        # Measured in this process's CPU time: on a loaded machine a wall
        # wait ended before the rest of the level (x*x after x+x) was built.
        if state["solved_at"] is None:
            state["solved_at"] = time.process_time()
        wait = ALTERNATIVE_SECONDS if linger is None else linger
        return not want_alternative or bool(alternative) or time.process_time() > state["solved_at"] + wait

    def note_hits(h: np.ndarray, describe, full: np.ndarray | None = None) -> None:
        """`h`: example hashes of a chunk of terms; `full`: their full hashes."""
        for ti, th in enumerate(target_hash):
            hit = np.flatnonzero(h == th)
            if not hit.size:
                continue
            if ti not in found:
                found[ti] = describe(int(hit[0]))
                if full is not None:
                    found_full[ti] = full[hit[0]]
            if want_alternative and ti not in alternative and ti in found_full and full is not None:
                other = hit[full[hit] != found_full[ti]]
                if other.size:
                    alternative[ti] = describe(int(other[0]))

    # Divide and conquer: residual targets behind one or two invertible
    # layers (`synth/residuals.py`), looked up among every term as it is built.
    residual_sets: dict[int, tuple] = {}  # target index -> (Residuals, sorted hashes, their order)
    # Register targets with many distinct values (at least 4 and half the
    # examples). Few distinct outputs (0/1 tests) carry few bits: a large
    # term fits them by chance far more easily.
    informative = [t[0] == "reg" and len(np.unique(t[-1])) >= max(4, E // 2) for t in targets]
    if RESIDUAL_DEPTH:
        leaf_ex = banks[1].values[:, :E]
        for ti, target in enumerate(targets):
            # Few distinct outputs (0/1 tests) carry few bits: thousands of
            # residuals of them would be fit by chance by some term.
            if informative[ti]:
                res = RS.residuals(target[-1], leaves, leaf_ex, set(binary) | set(unary), RESIDUAL_DEPTH)
                if len(res.costs):
                    rh = hash_examples(res.values)
                    order = np.lexsort((res.costs, rh))  # by hash, cheapest first
                    # A bitmap of the hashes' low bits screens a chunk with
                    # one gather; only the few that pass are searched.
                    screen = np.zeros(_SCREEN, bool)
                    screen[(rh & np.uint64(_SCREEN - 1)).astype(np.int64)] = True
                    residual_sets[ti] = (res, rh[order], order, screen)

    def note_residuals(h: np.ndarray, describe, at_size: int) -> None:
        """`h`: example hashes of a chunk of terms of size `at_size`."""
        for ti, (res, sorted_h, order, screen) in residual_sets.items():
            if ti in found:
                continue
            maybe = np.flatnonzero(screen[(h & np.uint64(_SCREEN - 1)).astype(np.int64)])
            pos = np.minimum(np.searchsorted(sorted_h, h[maybe]), len(sorted_h) - 1)
            hits = np.flatnonzero(sorted_h[pos] == h[maybe])
            for hi in hits[:16]:
                ri = int(order[pos[hi]])
                hi = maybe[hi]
                offer_met(ti, at_size + int(res.costs[ri]), ("resid", ti, ri, describe(int(hi))))

    note_hits(hash_examples(leaf_values[keep]), lambda i: ("leaf", i), leaf_hash[keep])
    note_residuals(hash_examples(leaf_values[keep]), lambda i: ("leaf", i), 1)

    def term(size: int, index: int) -> T.Term:
        if size == 1:
            return leaves[index]
        bank = banks[size]
        op = op_names[bank.op[index]]
        a = term(*map(int, bank.left[index]))  # (size, index) rows
        if op in vecops.UNARY:
            return T.unary(op, a)
        return macros.node(op, a, term(*map(int, bank.right[index])))

    def built(desc) -> T.Term:
        if desc[0] == "leaf":
            return leaves[desc[1]]
        if desc[0] == "bank":
            return term(desc[1], desc[2])
        if desc[0] == "resid":
            _, ti, ri, inner = desc
            return residual_sets[ti][0].rebuild(ri, built(inner), leaves)
        if desc[0] == "meet1":
            return T.unary(desc[1], term(*desc[2]))
        if desc[0] == "meet":
            _, op, swap, v, n = desc
            a, b = (term(*n), term(*v)) if swap else (term(*v), term(*n))
            return T.binary(op, a, b)
        _, op, asz, ai, bsz, bi = desc
        if op in vecops.UNARY:
            return T.unary(op, term(asz, ai))
        return macros.node(op, term(asz, ai), term(bsz, bi))

    inverses = [inv for inv in _INVERSES if inv[2] in binary]

    example_hashes: dict[int, np.ndarray] = {}  # size -> hashes of the bank's example columns

    def meet(newest: int) -> None:
        """Targets op(V, N) with V of the newest size and N of any size so far
        (matched on the example columns)."""
        sizes = sorted(banks)
        for k in sizes:
            if k not in example_hashes:
                example_hashes[k] = hash_examples(banks[k].values)
        all_h = np.concatenate([example_hashes[k] for k in sizes])
        where = np.concatenate([np.stack([np.full(len(example_hashes[k]), k), np.arange(len(example_hashes[k]))], 1)
                                for k in sizes])
        # Stable: terms equal on the examples (kept apart by the probes)
        # share a hash, and the lookup must find the smallest of them (the
        # sizes are concatenated in order). P20's `DIV(...) ^ leaf` was met
        # with a 5-node twin of the leaf instead, too large to report.
        order = np.argsort(all_h, kind="stable")
        sorted_h = all_h[order]
        V = banks[newest].values[:, :E]
        for ti, target in enumerate(targets):
            if ti in found or target[0] != "reg":
                continue
            best = None
            for _, need, op, swap in inverses:
                h = hash_examples(vecops.wrap(need(target[-1][None, :], V)))
                pos = np.minimum(np.searchsorted(sorted_h, h), len(sorted_h) - 1)
                hits = np.flatnonzero(sorted_h[pos] == h)
                # Smallest N first: in a large level many V have some N (a
                # sum of two big terms is easy to hit), and the first 64 by
                # index hid P20's `DIV(...) ^ leaf` behind 5-node partners.
                hits = hits[np.argsort(where[order[pos[hits]], 0], kind="stable")]
                for vi in hits[:64]:
                    n_size, ni = where[order[pos[vi]]]
                    pair = (int(n_size), (op, swap, (newest, int(vi)), (int(n_size), int(ni))))
                    if best is None or n_size < best[0]:
                        best = pair
                    if len(met_pool.get(ti, ())) < MET_POOL // 2:  # a few others, for `met_alternative`
                        offer_met(ti, newest + pair[0] + 1, ("meet", *pair[1]))
            if best is not None:
                offer_met(ti, newest + best[0] + 1, ("meet", *best[1]))
            # One step ahead: AND / OR of a new term with an input (x & f(x)).
            for li, leaf in enumerate(leaves):
                if leaf.kind != "input" or (ti in met and met[ti][0] <= newest + 2):
                    continue
                for op in ("AND", "OR"):
                    if op not in binary:
                        continue
                    h = hash_examples(vecops.BINARY[op](V, banks[1].values[li, :E][None, :]))
                    hits = np.flatnonzero(h == target_hash[ti])
                    for hit in hits[:4]:
                        offer_met(ti, newest + 2, ("meet", op, False, (newest, int(hit)), (1, li)))
                    if hits.size:
                        break
            # NOT / NEG of a known term.
            for op, need in (("NOT", lambda t: ~t), ("NEG", lambda t: -t)):
                if op not in unary:
                    continue
                h = hash_examples(vecops.wrap(need(target[-1]))[None, :])[0]
                pos = min(int(np.searchsorted(sorted_h, h)), len(sorted_h) - 1)
                if sorted_h[pos] == h:
                    n_size, ni = (int(v) for v in where[order[pos]])
                    offer_met(ti, n_size + 1, ("meet1", op, (n_size, ni)))
        # One step ahead for the residual targets too: V & x and V | x with an
        # input x, one level before the term is enumerated. P19's residual
        # t = ((x >>> k) ^ x) & m is met with the 5-node V, before the
        # enumeration builds 7-node terms (or the promoted phase runs).
        if residual_sets:
            for li, leaf in enumerate(leaves):
                if leaf.kind != "input":
                    continue
                for op in ("AND", "OR"):
                    if op in binary:
                        h = hash_examples(vecops.BINARY[op](V, banks[1].values[li, :E][None, :]))
                        note_residuals(h, lambda i, op=op, li=li: ("meet", op, False, (newest, i), (1, li)),
                                       newest + 2)

    def met_program(final: bool = False) -> list[str] | None:
        """The program of the met pairs (and regular finds) once every target
        has one: at once when the met terms are at most a few sizes beyond
        the enumerated ones, else only when the search ends without a
        regular find (a large met term fits the examples more by chance)."""
        if len(found) == len(targets) or len(set(found) | set(met)) < len(targets) or state.get("met_yielded"):
            return None
        # A residual hit waits until regular enumeration has nearly reached its
        # size: its layers make a longer program than the tree it stands for.
        # So does any met term of a target with few distinct values (P18's
        # 0/1 answer was met as a 7-node chance fit before the 5-node
        # `(x & -x) / x` was enumerated).
        if not final and any(t > size + (1 if d[0] == "resid" or not informative[ti] else MEET_AHEAD)
                             for ti, (t, d) in met.items() if ti not in found):
            return None
        state["met_yielded"] = True
        chosen = {ti: built(found[ti]) if ti in found else built(met[ti][1]) for ti in range(len(targets))}
        if want_alternative and 0 not in found and (other := met_alternative(chosen[0])) is not None:
            state["met_alternative"] = other
        return next(_emit(targets, chosen, spec), None)

    def met_alternative(chosen: T.Term) -> T.Term | None:
        """The smallest pooled met term (single register target) that fits
        the examples like `chosen` but gives other values on the probes."""
        def full(t: T.Term) -> np.ndarray:
            return vecops.wrap(T.evaluate(t, regs, memory))

        mine = full(chosen)
        for _, desc in sorted(met_pool.get(0, []), key=lambda item: item[0]):
            term = built(desc)
            values = full(term)
            if (values[:E] == mine[:E]).all() and (values[E:] != mine[E:]).any():
                return term
        return None

    size = 1
    meet(1)
    if (early := met_program()) is not None:
        yield early
        if "met_alternative" in state:
            yield from _emit(targets, {0: state.pop("met_alternative")}, spec)
    while not finished() and size < max_size and time.monotonic() < deadline:
        if promote and size >= PROMOTE_FROM_SIZE and not found and not met \
                and want_alternative and 0 in residual_sets:
            promote = False
            promoted_any = False
            for lines in _promoted_phase(spec, deadline, seed, max_size, linger,
                                         _promoted(targets[0][-1], banks, term, E)):
                promoted_any = True
                yield lines
            if promoted_any:
                return
        size += 1
        parts_v, parts_h, parts_op, parts_l, parts_r = [], [], [], [], []
        kept = 0
        pairings = [(op, size - 1, None) for op in unary]
        # Cheap operations first: a level's terms all have the same size, so
        # the order only decides how soon a find comes (DIV and MOD cost
        # several array passes per element).
        for op in sorted(binary, key=lambda op: _EXPENSIVE.get(op, 0)):
            for i in range(1, size - 1):
                j = size - 1 - i
                commutative = op in vecops.COMMUTATIVE or (op in macros.MACROS and macros.MACROS[op].commutative)
                if i in banks and j in banks and not (commutative and i > j):
                    pairings.append((op, i, j))
        for op, i, j in pairings:
            A = banks[i].values
            fn = vecops.UNARY.get(op) or vecops.BINARY.get(op) or macros.MACROS[op].values
            nb = 1 if j is None else len(banks[j].values)
            rows = max(1, _CHUNK // nb)
            for start in range(0, len(A), rows):
                if time.monotonic() > deadline:
                    return
                a = A[start:start + rows]
                if j is None:
                    R = fn(a)
                else:
                    R = fn(a[:, None, :], banks[j].values[None, :, :]).reshape(len(a) * nb, -1)
                if want_alternative:
                    # The full hash is the example columns' hash plus the
                    # probes' (a sum of products splits): one pass over the
                    # example columns instead of two.
                    hx = hash_examples(R)
                    h = hx + R[:, E:].view(np.uint64) @ coeff[E:]
                else:
                    hx = h = hash_rows(R)

                def describe(flat, op=op, i=i, j=j, start=start, nb=nb):
                    ai, bi = divmod(flat, nb)
                    return ("pair", op, i, start + ai, j, bi)

                note_hits(hx, describe, h)
                if residual_sets:
                    note_residuals(hx, describe, size)
                if finished():
                    break
                if kept >= LEVEL_CAP:
                    continue
                uniq_h, first = np.unique(h, return_index=True)
                fresh = ~np.isin(uniq_h, seen, assume_unique=True)
                take = first[fresh][: LEVEL_CAP - kept]
                kept += len(take)
                ai, bi = np.divmod(take, nb)
                parts_v.append(R[take]); parts_h.append(h[take])
                parts_op.append(np.full(len(take), op_names.index(op), np.int16))
                parts_l.append(np.stack([np.full(len(take), i), start + ai], 1))
                parts_r.append(np.stack([np.full(len(take), j or 0), bi], 1))
            if finished():
                break
        if parts_v and not finished():
            H = np.concatenate(parts_h)
            uniq_h, first = np.unique(H, return_index=True)
            banks[size] = _Bank(np.concatenate(parts_v)[first], uniq_h, np.concatenate(parts_op)[first],
                                np.concatenate(parts_l)[first], np.concatenate(parts_r)[first])
            # The level's hashes are unique and none was seen before (each
            # chunk kept only fresh ones): insert them into the sorted `seen`
            # (linear) instead of union1d's sort of both.
            seen = np.insert(seen, np.searchsorted(seen, uniq_h), uniq_h)
            meet(size)
            if (early := met_program()) is not None:
                yield early
                if "met_alternative" in state:
                    yield from _emit(targets, {0: state.pop("met_alternative")}, spec)
    if len(found) < len(targets):
        if (late := met_program(final=True)) is not None:
            yield late
        if "met_alternative" in state:
            yield from _emit(targets, {0: state["met_alternative"]}, spec)
        return
    yield from _emit(targets, {ti: built(d) for ti, d in found.items()}, spec)
    if alternative:
        yield from _emit(targets, {ti: built(d) for ti, d in alternative.items()}, spec)


def _emit(targets, terms: dict, spec: Spec) -> Iterator[list[str]]:
    registers, stores = {}, []
    for ti, target in enumerate(targets):
        t = terms[ti]
        if target[0] == "reg":
            registers[target[1]] = t
        else:
            stores.append((t, target[1], target[2]))
    lines = T.compile_terms(registers, stores, spec.inputs)
    if lines is not None:
        yield lines + ["HALT"]
