"""Saturating, rounding and halving integer Advanced SIMD: the lane arithmetic.

  three same    [SU]QADD [SU]QSUB [SU]QSHL [SU]RSHL [SU]QRSHL SQDMULH SQRDMULH
                [SU]HADD [SU]RHADD [SU]HSUB
  two-reg misc  SUQADD USQADD SQABS SQNEG SQXTN UQXTN SQXTUN
  narrowing     the shifts' RSHRN SQSHRUN SQRSHRUN [SU]QSHRN [SU]QRSHRN

Every form is a row of its own (exec_vec3.py, exec_vdiff.py, exec_vmisc.py,
exec_vscalar.py, exec_velem.py and exec_vshift.py run them); they share the
lane functions here: three_lane, misc_lane, narrow.  The wide arithmetic is in
sat_lanes.py.  A lane that saturates sets FPSR.QC (bit 27), which stays set
until software clears it.
"""
import numpy as np

from .jit import njit
from .sat_lanes import (add_wide, doubling_mul_high, hi_of, rshr, sat, shl_wide, shr,
                        sub_wide, sx)
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
    res = V.tmp
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
