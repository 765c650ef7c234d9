"""Saturating, rounding and halving integer Advanced SIMD, vector and scalar.

  three same    [SU]QADD [SU]QSUB [SU]QSHL [SU]RSHL [SU]QRSHL SQDMULH SQRDMULH
                [SU]HADD [SU]RHADD [SU]HSUB
  two-reg misc  SUQADD USQADD SQABS SQNEG SQXTN UQXTN SQXTUN
  three diff    SQDMULL SQDMLAL SQDMLSL
  by element    SQDMULH SQRDMULH SQDMULL SQDMLAL SQDMLSL

The vector three-same, three-different and two-register forms and the
shifts by immediate are rows of their own (exec_vec3.py, exec_vdiff.py,
exec_vmisc.py, exec_vshift.py run them with the lane functions below:
three_lane, misc_lane, narrow); `exec_sat` runs the scalar forms and the
by-element forms, which still live in
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
from .sat_lanes import (add_wide, doubling_mul_high, doubling_mul_long, hi_of, rshr, sat, shl_wide, shr,
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
    rm = (w >> 16) & 31
    q = bits(w, 30, 1)
    u = bits(w, 29, 1)
    size = bits(w, 22, 2)
    scalar = op != T.VELEM
    res = np.empty(16, np.int64)
    qc = False
    if op == T.S3SAME:
        o = bits(w, 11, 5)
        n = 1 if scalar else (16 if q else 8) >> size
        for i in range(n):
            r, f = three_lane(o, u, lane(V, rn, size, i), lane(V, rm, size, i), 8 << size)
            res[i] = r
            qc |= f
        _put(V, rd, size, res, n, q, scalar)
    elif op == T.S2MISC:
        o = bits(w, 12, 5)
        if o == 18 or o == 20:                       # SQXTUN; SQXTN / UQXTN
            qc = narrow(V, rd, rn, size, q, scalar, 0, False, u == 0 or o == 18, u == 0 and o == 20, True)
        else:
            n = 1 if scalar else (16 if q else 8) >> size
            for i in range(n):
                r, f = misc_lane(o, u, lane(V, rn, size, i), lane(V, rd, size, i), 8 << size)
                res[i] = r
                qc |= f
            _put(V, rd, size, res, n, q, scalar)
    elif op == T.S3DIFF:                             # 9 SQDMLAL, 11 SQDMLSL, 13 SQDMULL (scalar)
        o = bits(w, 12, 4)
        esize = 8 << size
        r, f = doubling_mul_long(sx(lane(V, rn, size, 0), esize, True), sx(lane(V, rm, size, 0), esize, True),
                                 lane(V, rd, size + 1, 0), 2 * esize, 1 if o == 9 else (-1 if o == 11 else 0))
        res[0] = r
        qc |= f
        _put(V, rd, size + 1, res, 1, 1, scalar)
    else:                                            # by element
        o = bits(w, 12, 4)
        h, l, m = bits(w, 11, 1), bits(w, 21, 1), bits(w, 20, 1)
        if size == 1:                                # 16-bit lanes: index H:L:M, Vm in v0-v15
            idx, rmi = (h << 2) | (l << 1) | m, rm & 15
        else:
            idx, rmi = (h << 1) | l, rm
        esize = 8 << size
        y = sx(lane(V, rmi, size, idx), esize, True)
        if o == 12 or o == 13:                       # SQDMULH, SQRDMULH
            n = 1 if scalar else (16 if q else 8) >> size
            for i in range(n):
                r, f = doubling_mul_high(sx(lane(V, rn, size, i), esize, True), y, esize, o - 12)
                res[i] = r
                qc |= f
            _put(V, rd, size, res, n, q, scalar)
        else:                                        # 3 SQDMLAL, 7 SQDMLSL, 11 SQDMULL
            acc = 1 if o == 3 else (-1 if o == 7 else 0)
            cnt = 1 if scalar else 4 >> (size - 1)
            off = cnt if q and not scalar else 0
            for i in range(cnt):
                a = sx(lane(V, rn, size, off + i), esize, True)
                r, f = doubling_mul_long(a, y, lane(V, rd, size + 1, i), 2 * esize, acc)
                res[i] = r
                qc |= f
            _put(V, rd, size + 1, res, cnt, 1, scalar)
    if qc:
        R[FPSR] |= QC
