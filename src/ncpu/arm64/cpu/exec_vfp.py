"""What is left of the coarse shift rows outside exec_sat: the fixed-point
conversions (vector and scalar) and the plain scalar shifts (`ushr d0, d1, #3`).
The FP forms split per row are in exec_vfparith.py, the scalar integer ones
in exec_vscalar.py.

Every lane goes through the lane helpers of fpu.py, the same ones scalar FP
uses, so NaN rules agree everywhere.  Lanes are collected into a buffer and
written at the end (a destination may also be a source).  sz is 2 for
single and 3 for double lanes; `esz` in the encodings (bit 22) picks it.
"""
import numpy as np
from numba import njit

from .alu import lsr
from .fpu import fixed_flags, fixed_to_fp, fp_to_fixed
from .decoder import bits
from .state import FPSR
from .vregs import lane, set_lane, write_lanes


SIGN32 = np.int64(0x80000000)
SIGN64 = np.int64(1) << 63


@njit(cache=True)
def _scalar(V, rd, sz, x):
    V.d[rd, 0] = 0
    V.d[rd, 1] = 0
    set_lane(V, rd, sz, 0, x)


@njit(cache=True)
def _mask(sz):
    return np.int64(-1) if sz == 3 else (np.int64(1) << (8 << sz)) - 1


@njit(cache=True)
def vfp_fixed(V, w, rd, rn, q, immh, immhb, R):
    """[SU]CVTF / FCVTZ[SU] (vector, fixed-point)."""
    u = bits(w, 29, 1)
    o = bits(w, 11, 5)
    dbl = immh >= 8
    sz = 3 if dbl else 2
    fb = (128 if dbl else 64) - immhb
    n = (4 if q else 2) >> (sz - 2)
    res = np.empty(4, np.int64)
    for i in range(n):
        x = lane(V, rn, sz, i)
        R[FPSR] |= fixed_flags(x, o == 28, dbl, 64 if dbl else 32, u == 1, fb)
        if o == 28:
            res[i] = fixed_to_fp(x, 64 if dbl else 32, u == 1, fb, dbl)
        else:
            res[i] = fp_to_fixed(x, dbl, 3, 64 if dbl else 32, u == 1, fb)
    write_lanes(V, rd, sz, res, n, q)
# ---- scalar AdvSIMD forms ------------------------------------------------------------------
@njit(cache=True)
def exec_scalar(op, w, V, fpcr, R):
    rd = w & 31
    rn = (w >> 5) & 31
    u = bits(w, 29, 1)
    # SSHIFT
    immh = bits(w, 19, 4)
    immhb = bits(w, 16, 7)
    o = bits(w, 11, 5)
    if o == 28 or o == 31:
        dbl = immh >= 8
        sz = 3 if dbl else 2
        fb = (128 if dbl else 64) - immhb
        x = lane(V, rn, sz, 0)
        R[FPSR] |= fixed_flags(x, o == 28, dbl, 64 if dbl else 32, u == 1, fb)
        if o == 28:
            r = fixed_to_fp(x, 64 if dbl else 32, u == 1, fb, dbl)
        else:
            r = fp_to_fixed(x, dbl, 3, 64 if dbl else 32, u == 1, fb)
        _scalar(V, rd, sz, r)
        return
    x = V.d[rn, 0]
    sh_r = 128 - immhb
    sh_l = immhb - 64
    if o == 10 and u == 0:                             # SHL
        r = x << sh_l
    elif o == 10:                                      # SLI
        r = (x << sh_l) | (V.d[rd, 0] & ~(np.int64(-1) << sh_l))
    elif o == 8:                                       # SRI
        keep = np.int64(-1) if sh_r == 64 else ~lsr(np.int64(-1), sh_r)   # #64 inserts nothing
        r = (0 if sh_r == 64 else lsr(x, sh_r)) | (V.d[rd, 0] & keep)
    else:
        if u:
            r = 0 if sh_r >= 64 else lsr(x, sh_r)
        else:
            r = x >> min(sh_r, 63)
        if o == 2:
            r += V.d[rd, 0]
    _scalar(V, rd, 3, r)
