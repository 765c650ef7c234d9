"""FEAT_FHM against unicorn: FMLAL/FMLSL and FMLAL2/FMLSL2, vector and by
element, Q = 0 and 1 (exec_vfhm).

Half-precision lanes of Vn and Vm (the lower half of the lanes, or the upper
for the "2" forms; by element one lane of v0-v15) multiplied exactly and added
to Vd's single-precision lanes with one rounding.  The operands include every
kind of half: signed zeros, infinities, quiet and signalling NaNs (each with
its own payload and sign, so a wrong pick or a lost payload shows), subnormals,
the smallest and largest normals; the lanes a form does not read hold other
values, so reading the wrong half shows too.  Registers, the FPSR flags (IOC
DZC OFC UFC IXC IDC) and, for Q = 0, the cleared upper half of Vd are compared,
with FPCR.DN off and on.
"""
import itertools
import random
import struct

import numpy as np
import pytest

import arm64cpu_harness as H
from ncpu.arm64.cpu.fpu import half_to_single

import unicorn  # noqa: F401  (a test dependency: fail, never skip, when it is missing)

FORMS = ("FMLAL_v", "FMLSL_v", "FMLAL2_v", "FMLSL2_v", "FMLAL_vi", "FMLSL_vi", "FMLAL2_vi", "FMLSL2_vi")
DN = 1 << 25
RD, RN, RM = 3, 1, 2
HALF_SPECIAL = [0x0000, 0x8000, 0x7C00, 0xFC00,          # +-0, +-inf
                0x7E01, 0xFE02, 0x7C03, 0xFC04,          # quiet NaNs, signalling NaNs
                0x0001, 0x83FF, 0x0200,                  # subnormals
                0x0400, 0x7BFF, 0xFBFF, 0x3C00, 0x3E00]  # smallest normal, +-largest, 1.0, 1.5
_MAX_PRODUCT = struct.unpack("<I", struct.pack("<f", 65504.0 * 65504.0))[0]
SINGLE_SPECIAL = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000,   # +-0, +-inf
                  0x7FC00005, 0xFF800006,                            # quiet and signalling NaN
                  0x00000001, 0x3F800000, 0x7F7FFFFF,                # subnormal, 1.0, largest
                  _MAX_PRODUCT | 1 << 31, 0x33800000]                # -(65504^2), 2^-24


def word(name, q, idx, rd, rn, rm):
    """The encoding of row `name`; by element, Vm.h[idx] with rm in v0-v15."""
    f = dict(q=q, vd=rd, vn=rn, vm=rm)
    if name.endswith("_vi"):
        f.update(h=idx >> 2, l=(idx >> 1) & 1, vm=rm | (idx & 1) << 4)
    return H.T.BY_NAME[name].encode(**f)


def pack(lanes, width):
    v = sum((x & ((1 << width) - 1)) << (width * i) for i, x in enumerate(lanes))
    return v & H.U64, v >> 64


def source_lanes(name, q):
    """The half lanes of Vn (and Vm, vector forms) that the form reads."""
    n = 4 if q else 2
    first = n if "2_" in name else 0
    return range(first, first + n)


def _case(name, q, idx, rd, rn, rm, acc, xs, ys, fpcr, filler):
    """One case: Vd's single lanes acc, the read half lanes of Vn xs and of Vm ys (by
    element: ys[0] at index idx); every other lane of the three registers from filler()."""
    d, nv, mv = [filler(32) for _ in range(4)], [filler(16) for _ in range(8)], [filler(16) for _ in range(8)]
    lanes = source_lanes(name, q)
    for i, k in enumerate(lanes):
        d[i] = acc[i]
        nv[k] = xs[i]
        if not name.endswith("_vi"):
            mv[k] = ys[i]
    if name.endswith("_vi"):
        mv[idx] = ys[0]
    regs = {rd: pack(d, 32), rn: pack(nv, 16), rm: pack(mv, 16)}
    return word(name, q, idx, rd, rn, rm), regs, fpcr


@pytest.mark.parametrize("name", FORMS)
def test_special_operands(name):
    """Every (addend, Vn lane, Vm lane) combination of the special values, FPCR.DN off and on."""
    rng = random.Random(name)
    filler = rng.getrandbits
    cases = []
    vector = not name.endswith("_vi")
    for fpcr in (0, DN):
        if vector:
            triples = list(itertools.product(SINGLE_SPECIAL, HALF_SPECIAL, HALF_SPECIAL))
            for k in range(0, len(triples), 4):
                acc, xs, ys = zip(*triples[k:k + 4])
                cases.append(_case(name, 1, 0, RD, RN, RM, acc, xs, ys, fpcr, filler))
        else:
            pairs = list(itertools.product(SINGLE_SPECIAL, HALF_SPECIAL))
            for j, y in enumerate(HALF_SPECIAL):
                for k in range(0, len(pairs), 4):
                    acc, xs = zip(*pairs[k:k + 4])
                    cases.append(_case(name, 1, (j + k) % 8, RD, RN, RM, acc, xs, (y,), fpcr, filler))
    bad = H.compare_cases(cases)
    assert not bad, f"{len(bad)}/{len(cases)} divergences:\n" + "\n".join(bad[:25])


def _half(rng):
    return rng.choice(HALF_SPECIAL) if rng.random() < 0.3 else rng.getrandbits(16)


def _single(rng):
    """An addend: a special, or any sign and an exponent in the products' range and
    around it (2^-60 .. 2^40), so that rounding, cancellation and absorption all occur."""
    if rng.random() < 0.2:
        return rng.choice(SINGLE_SPECIAL)
    return rng.getrandbits(1) << 31 | rng.randrange(127 - 60, 127 + 40) << 23 | rng.getrandbits(23)


def test_random_operands():
    """Random forms, Q, element index, registers (overlaps included), operands and FPCR.DN."""
    rng = random.Random(16)
    cases = []
    for _ in range(1200):
        name, q, idx = rng.choice(FORMS), rng.getrandbits(1), rng.randrange(8)
        rd, rn = rng.randrange(32), rng.randrange(32)
        rm = rng.randrange(16) if name.endswith("_vi") else rng.randrange(32)
        acc = [_single(rng) for _ in range(4)]
        xs, ys = [_half(rng) for _ in range(4)], [_half(rng) for _ in range(4)]
        w, regs, fpcr = _case(name, q, idx, rd, rn, rm, acc, xs, ys, rng.choice((0, DN)), rng.getrandbits)
        # registers named twice hold the last value written; give the others random lanes
        for r in range(32):
            regs.setdefault(r, (rng.getrandbits(64), rng.getrandbits(64)))
        cases.append((w, regs, fpcr))
    bad = H.compare_cases(cases)
    assert not bad, f"{len(bad)}/{len(cases)} divergences:\n" + "\n".join(bad[:25])


def test_half_to_single_is_exact():
    """Every half-precision pattern: the single with the same value (numpy's conversion),
    a NaN with its sign, payload and signalling bit kept."""
    halves = np.arange(1 << 16, dtype=np.uint32)
    expect = halves.astype(np.uint16).view(np.float16).astype(np.float32).view(np.uint32)
    for h in range(1 << 16):
        got = half_to_single(h)
        if (h >> 10) & 0x1F == 0x1F and h & 0x3FF:
            assert got == (h >> 15) << 31 | 0x7F800000 | (h & 0x3FF) << 13, hex(h)
        else:
            assert got == int(expect[h]), hex(h)
