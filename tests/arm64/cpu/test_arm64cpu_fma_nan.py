"""Fused multiply-add NaN rules against unicorn: FMADD/FMSUB/FNMADD/FNMSUB
and FMLA/FMLS (vector and by element), single and double precision, every
combination of signalling/quiet NaN, infinity, zero and a number in each
operand position, with FPCR.DN off and on.

ARM (FPMulAdd/FPProcessNaNs3) picks the first signalling NaN in the order
addend, factor 1, factor 2, then the first quiet NaN; a quiet-NaN addend with
inf * 0 gives the default NaN, a signalling one does not.  Negations (FMSUB,
FNMADD, FNMSUB, FMLS) apply to the inputs, NaNs included, before that.
Each NaN below has its own payload and sign, so a wrong pick shows.
"""
import itertools

import arm64cpu_harness as H

VALUES = {
    False: [0x7F800001, 0xFF800002, 0x7FC00003, 0xFFC00004, 0x7F800000, 0x00000000, 0x3FC00000],
    True: [0x7FF0000000000001, 0xFFF0000000000002, 0x7FF8000000000003, 0xFFF8000000000004,
           0x7FF0000000000000, 0, 0x3FF8000000000000],
}
DN = 1 << 25
RD, RN, RM, RA = 3, 1, 2, 4      # distinct registers for every operand


def triples(dbl):
    """(addend, factor 1, factor 2) bit patterns, all combinations."""
    return list(itertools.product(VALUES[dbl], repeat=3))


def pack(lanes, dbl):
    """Lane bit patterns -> (lo, hi) of a 128-bit register."""
    w = 64 if dbl else 32
    v = sum(x << (w * i) for i, x in enumerate(lanes))
    return v & H.U64, v >> 64


def test_scalar_fmadd_family_nans():
    cases = []
    for dbl, fpcr in itertools.product((False, True), (0, DN)):
        for o1, o0 in itertools.product((0, 1), repeat=2):      # FMADD FMSUB FNMADD FNMSUB
            w = 0x1F000000 | dbl << 22 | o1 << 21 | RM << 16 | o0 << 15 | RA << 10 | RN << 5 | RD
            for a, x, y in triples(dbl):
                cases.append((w, {RA: (a, 0), RN: (x, 0), RM: (y, 0)}, fpcr))
    bad = H.compare_cases(cases)
    assert not bad, f"{len(bad)}/{len(cases)} divergences:\n" + "\n".join(bad[:25])


def test_vector_fmla_fmls_nans():
    cases = []
    for dbl, fpcr in itertools.product((False, True), (0, DN)):
        n = 2 if dbl else 4
        ts = triples(dbl)
        for sub in (0, 1):
            # FMLA/FMLS Vd.<T>, Vn.<T>, Vm.<T> (Q=1): Vd is the addend
            vec = 0x4E20CC00 | sub << 23 | dbl << 22 | RM << 16 | RN << 5 | RD
            for k in range(0, len(ts), n):
                a, x, y = zip(*ts[k:k + n])
                cases.append((vec, {RD: pack(a, dbl), RN: pack(x, dbl), RM: pack(y, dbl)}, fpcr))
            # FMLA/FMLS Vd.<T>, Vn.<T>, Vm.<T>[1]: factor 2 is one element for all lanes
            elem = 0x4F801000 | sub << 14 | dbl << 22 | RM << 16 | RN << 5 | RD
            elem |= (1 << 11) if dbl else (1 << 21)                # index 1 (H, or L)
            pairs = list(itertools.product(VALUES[dbl], repeat=2))
            for y in VALUES[dbl]:
                for k in range(0, len(pairs), n):
                    a, x = zip(*pairs[k:k + n])
                    cases.append((elem, {RD: pack(a, dbl), RN: pack(x, dbl), RM: pack((0, y), dbl)}, fpcr))
    bad = H.compare_cases(cases)
    assert not bad, f"{len(bad)}/{len(cases)} divergences:\n" + "\n".join(bad[:25])


def _finite(rng, dbl):
    """A random finite bit pattern: any sign, exponents from subnormal to near overflow."""
    if dbl:
        return int(rng.integers(0, 0x7FF)) << 52 | int(rng.integers(0, 1 << 52)) | int(rng.integers(0, 2)) << 63
    return int(rng.integers(0, 0xFF)) << 23 | int(rng.integers(0, 1 << 23)) | int(rng.integers(0, 2)) << 31


def test_by_element_fmla_fmls_finite_operands():
    """FMLA/FMLS .2d and .4s by element without NaN operands take a short path on the float
    views (exec_velem.fma_lanes_fast): results and FPSR flags (inexact, overflow, underflow,
    inf * 0) as unicorn's, every element index."""
    import numpy as np
    rng = np.random.default_rng(9)
    cases = []
    for dbl, sub in itertools.product((False, True), (0, 1)):
        n = 2 if dbl else 4
        for k in range(120):
            idx = k % n
            elem = 0x4F801000 | sub << 14 | dbl << 22 | RM << 16 | RN << 5 | RD
            elem |= (idx << 11) if dbl else ((idx >> 1) << 11 | (idx & 1) << 21)
            special = VALUES[dbl][4:]                       # infinity, zero, 1.5: inf * 0 and exact cases
            pick = (lambda: special[int(rng.integers(0, 3))]) if k % 5 == 0 else (lambda: _finite(rng, dbl))
            regs = {RD: pack([pick() for _ in range(n)], dbl), RN: pack([pick() for _ in range(n)], dbl),
                    RM: pack([pick() for _ in range(n)], dbl)}
            cases.append((elem, regs, 0))
    bad = H.compare_cases(cases)
    assert not bad, f"{len(bad)}/{len(cases)} divergences:\n" + "\n".join(bad[:25])
