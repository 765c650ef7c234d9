"""The same problems through cvc5's SyGuS solver, for comparison.

A register-only problem becomes one `synthFun` per output over 32-bit
bit-vectors, with one constraint per example. The grammar holds the nCPU ALU
operations (bvadd ... bvashr, bvnot, bvneg, bvsdiv, bvsrem), the inputs and
the same constants our searches use, and no `ite`: cvc5's default grammar
would otherwise answer with a lookup table of the examples. (bvsdiv differs
from DIV only when dividing by zero.) cvc5 cannot be interrupted from
Python, so each problem runs in a child process that is killed at the
deadline. Needs the optional `cvc5` package.
"""

from __future__ import annotations

import multiprocessing as mp
import time

from ncpu.synth.enumerative import constants_for
from ncpu.synth.spec import Spec, parse_spec

MASK = 0xFFFFFFFF


def expressible(spec: Spec) -> bool:
    """Straight-line register problems only: SyGuS-BV has no memory or loops."""
    return not spec.uses_memory and bool(spec.outputs)


def _solve(spec_json: dict, answer) -> None:
    import cvc5
    from cvc5 import Kind

    spec = parse_spec(spec_json)
    started = time.monotonic()
    s = cvc5.Solver()
    s.setOption("sygus", "true")
    s.setOption("incremental", "false")
    s.setLogic("BV")
    bv = s.mkBitVectorSort(32)
    functions = []
    for index, _ in enumerate(spec.outputs):
        xs = [s.mkVar(bv, f"x{i}") for i in range(len(spec.inputs))]
        start = s.mkVar(bv, "Start")
        grammar = s.mkGrammar(xs, [start])
        rules = list(xs) + [s.mkBitVector(32, c & MASK) for c in constants_for(spec)]
        rules += [s.mkTerm(k, start, start) for k in (
            Kind.BITVECTOR_ADD, Kind.BITVECTOR_SUB, Kind.BITVECTOR_MULT, Kind.BITVECTOR_SDIV, Kind.BITVECTOR_SREM,
            Kind.BITVECTOR_AND, Kind.BITVECTOR_OR, Kind.BITVECTOR_XOR, Kind.BITVECTOR_SHL, Kind.BITVECTOR_LSHR,
            Kind.BITVECTOR_ASHR)]
        rules += [s.mkTerm(Kind.BITVECTOR_NOT, start), s.mkTerm(Kind.BITVECTOR_NEG, start)]
        grammar.addRules(start, rules)
        functions.append(s.synthFun(f"f{index}", xs, bv, grammar))
    for example in spec.examples:
        args = [s.mkBitVector(32, v & MASK) for v in example.inputs]
        for f, out in zip(functions, example.outputs):
            applied = s.mkTerm(Kind.APPLY_UF, f, *args) if args else f
            s.addSygusConstraint(s.mkTerm(Kind.EQUAL, applied, s.mkBitVector(32, out & MASK)))
    result = s.checkSynth()
    answer.put((bool(result.hasSolution()), time.monotonic() - started))


def solve(spec: Spec, timeout: float) -> tuple[bool, float]:
    """(solved, seconds) for cvc5 on this spec within `timeout`. Seconds are
    measured inside the child, so process start-up is not charged to cvc5
    (our portfolio's workers are long-lived, so it pays none either)."""
    context = mp.get_context("spawn")
    answer = context.Queue()
    started = time.monotonic()
    process = context.Process(target=_solve, args=(spec.to_json(), answer), daemon=True)
    process.start()
    process.join(timeout)
    seconds = time.monotonic() - started
    if process.is_alive():
        process.kill()
        process.join()
        return False, seconds
    try:
        solved, inner = answer.get(timeout=1)
        return bool(solved), inner
    except Exception:  # noqa: BLE001 - a crashed child means not solved
        return False, seconds


def available() -> bool:
    try:
        import cvc5  # noqa: F401
    except ImportError:
        return False
    return True
