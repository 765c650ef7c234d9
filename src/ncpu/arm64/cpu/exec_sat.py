"""Saturating, rounding and halving integer Advanced SIMD, vector and scalar.

  three same    [SU]QADD [SU]QSUB [SU]QSHL [SU]RSHL [SU]QRSHL SQDMULH SQRDMULH
                [SU]HADD [SU]RHADD [SU]HSUB
  two-reg misc  SUQADD USQADD SQABS SQNEG SQXTN UQXTN SQXTUN
  shift by imm  [SU]RSHR [SU]RSRA SQSHLU [SU]QSHL, and the narrowing RSHRN
                SQSHRUN SQRSHRUN [SU]QSHRN [SU]QRSHRN

The vector three-same, three-different and two-register forms, the scalar
three-different ones (SQDMULL, SQDMLAL, SQDMLSL) and the by-element ones
(SQDMULH ... SQDMLSL) are rows of their own (exec_vec3.py, exec_vdiff.py,
exec_vmisc.py, exec_velem.py run them, with the lane functions below:
three_lane, misc_lane, narrow); `exec_sat` runs the scalar three-same and
two-register forms and the shifts, which still live in
coarse encoding groups (table entries) beside the plain integer SIMD ops,
told apart by opcode: simd_valid.is_sat claims a word for this module and
checks its reserved values.  The lane
arithmetic is in sat_lanes.py.  A lane that saturates sets FPSR.QC
(bit 27), which stays set until software clears it.
"""
import numpy as np
from numba import njit

from . import decode_table as T
from .decoder import bits
from .sat_lanes import (add_wide, doubling_mul_high, hi_of, rshr, sat, shl_wide, shr,
                        sub_wide, sx)
from .state import FPSR
from .vregs import lane, set_scalar, write_lanes, write_narrow

QC = np.int64(1) << 27

# The kinds of three-same lane (three_lane's `o`), numbered as their opcode in the encoding.
HADD, QADD, RHADD, HSUB, QSUB, QSHL, RSHL, QRSHL, DMULH = 0, 1, 2, 4, 5, 9, 10, 11, 22
# ... and of two-register lane (misc_lane's `o`): SUQADD/USQADD, SQABS/SQNEG.
QACC, QABSNEG = 3, 7

# ---- one lane ---------------------------------------------------------------------------
@njit(cache=True)
def three_lane(o, u, a, b, esize):
    """A three-same lane of kind o (a, b zero-extended; u: unsigned): (result, saturated)."""
    sg = u == 0 or o == DMULH                          # SQRDMULH has U = 1 but is signed
    a = sx(a, esize, sg)
    b = sx(b, esize, sg)
    if o == QADD:
        hi, lo = add_wide(a, sg, b, sg)
        return sat(hi, lo, esize, sg)
    if o == QSUB:
        hi, lo = sub_wide(a, sg, b, sg)
        return sat(hi, lo, esize, sg)
    if o == DMULH:
        return doubling_mul_high(a, b, esize, u)
    if o == HADD:                                     # halving (at most 32-bit lanes: exact in int64)
        return (a + b) >> 1, False
    if o == RHADD:
        return (a + b + 1) >> 1, False
    if o == HSUB:
        return (a - b) >> 1, False
    # shift by the signed low byte of b: 9 saturating, 10 rounding, 11 both
    s = sx(b & 0xFF, 8, True)
    if s >= 0:
        hi, lo = shl_wide(a, s, sg)
    else:
        lo = rshr(a, -s, sg) if o != QSHL else shr(a, -s, sg)
        hi = hi_of(lo, sg)
    if o == RSHL:
        return lo, False                             # SRSHL/URSHL wrap
    return sat(hi, lo, esize, sg)


@njit(cache=True)
def misc_lane(o, u, x, d, esize):
    """SUQADD/USQADD (o QACC, accumulate into d), SQABS/SQNEG (o QABSNEG; u: NEG)."""
    if o == QACC:
        if u == 0:                                   # SUQADD: unsigned x into signed d
            hi, lo = add_wide(x, False, sx(d, esize, True), True)
            return sat(hi, lo, esize, True)
        hi, lo = add_wide(d, False, sx(x, esize, True), True)   # USQADD: signed x into unsigned d
        return sat(hi, lo, esize, False)
    x = sx(x, esize, True)
    if u == 0 and x >= 0:
        return sat(hi_of(x, True), x, esize, True)
    hi, lo = sub_wide(np.int64(0), True, x, True)
    return sat(hi, lo, esize, True)


@njit(cache=True)
def _shift_lane(o, u, x, d, sh, esize):
    """[SU]RSHR (o 4), [SU]RSRA (6), SQSHLU (12), [SU]QSHL (14) by an immediate."""
    sg = u == 0 or o == 12                           # SQSHLU: signed in, unsigned out
    x = sx(x, esize, sg)
    if o == HSUB:
        return rshr(x, sh, sg), False
    if o == 6:
        return d + rshr(x, sh, sg), False
    hi, lo = shl_wide(x, sh, sg)
    return sat(hi, lo, esize, u == 0)


# ---- whole instructions -------------------------------------------------------------------
@njit(cache=True)
def _put(V, rd, sz, res, n, q, scalar):
    if scalar:
        set_scalar(V, rd, sz, res[0])
    else:
        write_lanes(V, rd, sz, res, n, q)


@njit(cache=True)
def narrow(V, rd, rn, sz, q, scalar, s, rnd, in_sg, out_sg, saturate):
    """Lanes of 2*esize bits shifted right by s (rounding or not), then
    saturated or truncated to esize bits: SQXTN.. (s = 0), SQSHRN.., RSHRN."""
    esize = 8 << sz
    cnt = 1 if scalar else 8 >> sz
    res = np.empty(8, np.int64)
    qc = False
    for i in range(cnt):
        x = sx(lane(V, rn, sz + 1, i), 2 * esize, in_sg)
        if s > 0:
            x = rshr(x, s, in_sg) if rnd else shr(x, s, in_sg)
        if saturate:
            x, f = sat(hi_of(x, in_sg), x, esize, out_sg)
            qc |= f
        res[i] = x
    if scalar:
        set_scalar(V, rd, sz, res[0])
    else:
        write_narrow(V, rd, sz, res, cnt, q)
    return qc


@njit(cache=True)
def exec_sat(op, w, V, R):
    rd = w & 31
    rn = (w >> 5) & 31
    q = bits(w, 30, 1)
    u = bits(w, 29, 1)
    scalar = op != T.VSHIFT
    res = np.empty(16, np.int64)
    qc = False
    if op == T.VSHIFT or op == T.SSHIFT:
        immh = bits(w, 19, 4)
        immhb = bits(w, 16, 7)
        o = bits(w, 11, 5)
        sz = 3 if immh & 8 else 2 if immh & 4 else 1 if immh & 2 else 0
        esize = 8 << sz
        if o >= 16:
            # 16 SQSHRUN, 17 RSHRN (U=0) / SQRSHRUN (U=1), 18 [SU]QSHRN, 19 [SU]QRSHRN
            in_sg = (u == 1) if o <= 17 else (u == 0)
            qc = narrow(V, rd, rn, sz, q, scalar, 2 * esize - immhb, o & 1 == 1, in_sg,
                         o >= 18 and u == 0, not (o == 17 and u == 0))
        else:
            sh = 2 * esize - immhb if o <= 6 else immhb - esize
            n = 1 if scalar else (16 if q else 8) >> sz
            for i in range(n):
                r, f = _shift_lane(o, u, lane(V, rn, sz, i), lane(V, rd, sz, i), sh, esize)
                res[i] = r
                qc |= f
            _put(V, rd, sz, res, n, q, scalar)
    if qc:
        R[FPSR] |= QC
