"""The reciprocal estimates and steps, FCVTXN and SQRDMLAH/SQRDMLSH against unicorn
on operands chosen for their edges.

The per-form unicorn test (test_arm64cpu_unicorn.py) draws vector registers
of which a minority holds FP special values; here every lane is one:
zeros, infinities, quiet and signalling NaNs, subnormals of every magnitude
(the estimates' overflow and normalisation paths), the smallest and largest
normals, and products near the overflow threshold, with either sign, under
FPCR settings that change the results (FZ, DN, each rounding mode).  The
RDM forms run from integer edge lanes (MIN * MIN saturates).
"""
import random

import pytest

import arm64cpu_harness as H

import unicorn  # noqa: F401  (a test dependency: fail, never skip, when it is missing)

ESTIMATES = ("FRECPE_v", "FRSQRTE_v", "URECPE_v", "URSQRTE_v", "FCVTXN_v", "FRECPE_s", "FRSQRTE_s",
             "FRECPX_s", "FCVTXN_s", "FRECPS_v", "FRSQRTS_v", "FRECPS_s", "FRSQRTS_s")
RDM = ("SQRDMLAH_v", "SQRDMLSH_v", "SQRDMLAH_s", "SQRDMLSH_s", "SQRDMLAH_vi", "SQRDMLSH_vi",
       "SQRDMLAH_si", "SQRDMLSH_si")
FZ, DN = 1 << 24, 1 << 25
# FPCR.RMode is modelled by the rows whose result does not come from fpu.py's arithmetic
# (which rounds to nearest only, as documented there): not by the steps FRECPS/FRSQRTS.
FPCRS = (0, FZ, DN, FZ | DN, 1 << 22, 2 << 22, 3 << 22)
ROUNDING_FREE = tuple(n for n in ESTIMATES if not n.startswith(("FRECPS", "FRSQRTS")))
FPSR_MASK = 0x9F | 1 << 27


def _edge_float(rng, dbl):
    e_bits, f_bits = (11, 52) if dbl else (8, 23)
    emax = (1 << e_bits) - 1
    r = rng.random()
    if r < 0.15:
        exp, frac = rng.choice((0, emax)), 0                                  # zero, infinity
    elif r < 0.25:
        exp, frac = emax, rng.getrandbits(f_bits) | 1                         # NaN, quiet or signalling
    elif r < 0.55:
        exp, frac = 0, rng.getrandbits(f_bits) >> rng.randrange(f_bits)       # subnormal, any magnitude
    elif r < 0.75:
        exp, frac = rng.choice((1, 2, emax - 2, emax - 1)), rng.getrandbits(f_bits)   # range ends
    else:
        exp, frac = rng.randrange(1, emax), rng.getrandbits(f_bits)
    return rng.getrandbits(1) << (e_bits + f_bits) | exp << f_bits | frac


def _fp_edge_vectors(rng):
    out = []
    for _ in range(32):
        if rng.random() < 0.5:
            s = [_edge_float(rng, False) for _ in range(4)]
            out.append((s[0] | s[1] << 32, s[2] | s[3] << 32))
        else:
            out.append((_edge_float(rng, True), _edge_float(rng, True)))
    return out


@pytest.mark.parametrize("fpcr", FPCRS, ids=lambda f: f"fpcr{f:#x}")
def test_estimates_match_unicorn_on_edge_values(fpcr):
    rng = random.Random(fpcr + 3)
    uc, us = H.Unicorn(), H.Ours()
    bad, n = [], 0
    for _ in range(60):
        for name in ESTIMATES if fpcr & (3 << 22) == 0 else ROUNDING_FREE:
            w = H.random_word(rng, H.T.BY_NAME[name])
            vs = _fp_edge_vectors(rng)
            for m in (uc, us):
                m.set_state([0] * 31, H.MID, 0, vs, fpcr)
            _, uv, ufpsr = uc.step(w)
            _, ov, ofpsr = us.step(w)
            n += 1
            if list(uv) != list(ov) or (ufpsr ^ ofpsr) & FPSR_MASK:
                diff = [(i, hex(a), hex(b)) for i, (a, b) in enumerate(zip(uv, ov)) if a != b][:2]
                bad.append(f"{name} {w:#010x}: {diff} fpsr uc={ufpsr:#x} ours={ofpsr:#x}")
    assert n >= 60 * len(ROUNDING_FREE)
    assert not bad, f"{len(bad)}/{n} divergences:\n" + "\n".join(bad[:20])


def test_rdm_matches_unicorn_on_edge_lanes():
    n, bad = H.compare_classes(["simd"], 250, seed=31, fpsr_mask=FPSR_MASK, only=set(RDM), vectors=H.edge_vectors)
    assert n >= 250 * len(RDM) * 0.9, n
    assert not bad, f"{len(bad)}/{n} divergences:\n" + "\n".join(bad[:20])
