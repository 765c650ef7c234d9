"""Saturating, rounding and halving integer Advanced SIMD, vector and scalar.

  three same    [SU]QADD [SU]QSUB [SU]QSHL [SU]RSHL [SU]QRSHL SQDMULH SQRDMULH
                [SU]HADD [SU]RHADD [SU]HSUB
  two-reg misc  SUQADD USQADD SQABS SQNEG SQXTN UQXTN SQXTUN
  shift by imm  [SU]RSHR [SU]RSRA SQSHLU [SU]QSHL, and the narrowing RSHRN
                SQSHRUN SQRSHRUN [SU]QSHRN [SU]QRSHRN
  three diff    ADDHN RADDHN SUBHN RSUBHN, SQDMULL SQDMLAL SQDMLSL
  by element    SQDMULH SQRDMULH SQDMULL SQDMLAL SQDMLSL

They live in the same encoding groups (table entries) as the plain integer
SIMD ops, told apart by opcode: `is_sat` claims a word for this module,
`sat_ok` checks its reserved values, `exec_sat` runs it.  The lane
arithmetic is in sat_lanes.py.  A lane that saturates sets FPSR.QC
(bit 27), which stays set until software clears it.
"""
import numpy as np
from numba import njit

from . import decode_table as T
from .alu import lsr
from .exec_vfp import bits
from .sat_lanes import (add_wide, doubling_mul_high, doubling_mul_long, hi_of, rshr, sat, shl_wide, shr,
                        sub_wide, sx)
from .state import FPSR
from .vregs import lane, set_scalar, write_lanes, write_narrow

QC = np.int64(1) << 27

# Opcodes of each group that belong here (bit n set: opcode n); see is_sat.
_THREE_SAME = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 4) | (1 << 5) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 22)
_TWO_MISC = (1 << 3) | (1 << 7) | (1 << 20)                 # + 18 when U = 1 (SQXTUN; U = 0 is XTN)
_SHIFT = (1 << 4) | (1 << 6) | (1 << 12) | (1 << 14) | (1 << 17) | (1 << 18) | (1 << 19)  # + 16, U = 1
_THREE_DIFF = (1 << 4) | (1 << 6) | (1 << 9) | (1 << 11) | (1 << 13)
_ELEM = (1 << 3) | (1 << 7) | (1 << 11) | (1 << 12) | (1 << 13)


@njit(cache=True)
def is_sat(op, w):
    """Does this module own the word (valid or not)?"""
    u = bits(w, 29, 1)
    if op == T.V3SAME or op == T.S3SAME:
        return (_THREE_SAME >> bits(w, 11, 5)) & 1 == 1
    if op == T.V2MISC or op == T.S2MISC:
        o = bits(w, 12, 5)
        return (_TWO_MISC >> o) & 1 == 1 or (o == 18 and u == 1)
    if op == T.VSHIFT or op == T.SSHIFT:
        o = bits(w, 11, 5)
        return (_SHIFT >> o) & 1 == 1 or (o == 16 and u == 1)
    if op == T.V3DIFF:
        return (_THREE_DIFF >> bits(w, 12, 4)) & 1 == 1
    if op == T.VELEM or op == T.SELEM:
        return (_ELEM >> bits(w, 12, 4)) & 1 == 1
    return op == T.S3DIFF


@njit(cache=True)
def sat_ok(op, w):
    """Reserved-value checks for the words is_sat claims."""
    q = bits(w, 30, 1)
    u = bits(w, 29, 1)
    size = bits(w, 22, 2)
    vec = op == T.V3SAME or op == T.V2MISC or op == T.VSHIFT or op == T.V3DIFF or op == T.VELEM
    no_1d = not (vec and size == 3 and q == 0)       # a vector of one 64-bit lane is reserved
    if op == T.V3SAME or op == T.S3SAME:
        o = bits(w, 11, 5)
        if o == 0 or o == 2 or o == 4:               # halving: vector, 8 to 32 bits
            return vec and size != 3
        if o == 22:                                  # SQDMULH, SQRDMULH: 16 or 32 bits
            return size == 1 or size == 2
        if o == 10 and not vec:                      # SRSHL/URSHL scalar: 64 bits only
            return size == 3
        return no_1d
    if op == T.V2MISC or op == T.S2MISC:
        o = bits(w, 12, 5)
        if o == 18 or o == 20:                       # narrowing
            return size < 3
        return no_1d
    if op == T.VSHIFT or op == T.SSHIFT:
        immh = bits(w, 19, 4)
        o = bits(w, 11, 5)
        if immh == 0:
            return False                             # modified immediate space
        if o >= 16:                                  # narrowing: source 16 to 64 bits
            return immh < 8 and (vec or not (o == 17 and u == 0))   # RSHRN: vector only
        if o == 12 and u == 0:
            return False
        if o == 4 or o == 6:                         # [SU]RSHR, [SU]RSRA: scalar is 64-bit only
            return not (immh >= 8 and q == 0) if vec else immh >= 8
        return not (vec and immh >= 8 and q == 0)
    o = bits(w, 12, 4)
    if op == T.V3DIFF and (o == 4 or o == 6):        # [R]ADDHN, [R]SUBHN
        return size < 3
    if op == T.S3DIFF and not (o == 9 or o == 11 or o == 13):
        return False
    return u == 0 and (size == 1 or size == 2)       # the SQDM* family, SQ(R)DMULH by element


# ---- one lane ---------------------------------------------------------------------------
@njit(cache=True)
def _three_lane(o, u, a, b, esize):
    """A three-same lane (a, b zero-extended): (result, saturated)."""
    sg = u == 0 or o == 22                           # SQRDMULH has U = 1 but is signed
    a = sx(a, esize, sg)
    b = sx(b, esize, sg)
    if o == 1:
        hi, lo = add_wide(a, sg, b, sg)
        return sat(hi, lo, esize, sg)
    if o == 5:
        hi, lo = sub_wide(a, sg, b, sg)
        return sat(hi, lo, esize, sg)
    if o == 22:
        return doubling_mul_high(a, b, esize, u)
    if o == 0:                                       # halving (at most 32-bit lanes: exact in int64)
        return (a + b) >> 1, False
    if o == 2:
        return (a + b + 1) >> 1, False
    if o == 4:
        return (a - b) >> 1, False
    # shift by the signed low byte of b: 9 saturating, 10 rounding, 11 both
    s = sx(b & 0xFF, 8, True)
    if s >= 0:
        hi, lo = shl_wide(a, s, sg)
    else:
        lo = rshr(a, -s, sg) if o != 9 else shr(a, -s, sg)
        hi = hi_of(lo, sg)
    if o == 10:
        return lo, False                             # SRSHL/URSHL wrap
    return sat(hi, lo, esize, sg)


@njit(cache=True)
def _misc_lane(o, u, x, d, esize):
    """SUQADD/USQADD (o 3, accumulate into d), SQABS/SQNEG (o 7)."""
    if o == 3:
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
    if o == 4:
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
def _narrow(V, rd, rn, sz, q, scalar, s, rnd, in_sg, out_sg, saturate):
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
    scalar = not (op == T.V3SAME or op == T.V2MISC or op == T.VSHIFT or op == T.V3DIFF or op == T.VELEM)
    res = np.empty(16, np.int64)
    qc = False
    if op == T.V3SAME or op == T.S3SAME:
        o = bits(w, 11, 5)
        n = 1 if scalar else (16 if q else 8) >> size
        for i in range(n):
            r, f = _three_lane(o, u, lane(V, rn, size, i), lane(V, rm, size, i), 8 << size)
            res[i] = r
            qc |= f
        _put(V, rd, size, res, n, q, scalar)
    elif op == T.V2MISC or op == T.S2MISC:
        o = bits(w, 12, 5)
        if o == 18 or o == 20:                       # SQXTUN; SQXTN / UQXTN
            qc = _narrow(V, rd, rn, size, q, scalar, 0, False, u == 0 or o == 18, u == 0 and o == 20, True)
        else:
            n = 1 if scalar else (16 if q else 8) >> size
            for i in range(n):
                r, f = _misc_lane(o, u, lane(V, rn, size, i), lane(V, rd, size, i), 8 << size)
                res[i] = r
                qc |= f
            _put(V, rd, size, res, n, q, scalar)
    elif op == T.VSHIFT or op == T.SSHIFT:
        immh = bits(w, 19, 4)
        immhb = bits(w, 16, 7)
        o = bits(w, 11, 5)
        sz = 3 if immh & 8 else 2 if immh & 4 else 1 if immh & 2 else 0
        esize = 8 << sz
        if o >= 16:
            # 16 SQSHRUN, 17 RSHRN (U=0) / SQRSHRUN (U=1), 18 [SU]QSHRN, 19 [SU]QRSHRN
            in_sg = (u == 1) if o <= 17 else (u == 0)
            qc = _narrow(V, rd, rn, sz, q, scalar, 2 * esize - immhb, o & 1 == 1, in_sg,
                         o >= 18 and u == 0, not (o == 17 and u == 0))
        else:
            sh = 2 * esize - immhb if o <= 6 else immhb - esize
            n = 1 if scalar else (16 if q else 8) >> sz
            for i in range(n):
                r, f = _shift_lane(o, u, lane(V, rn, sz, i), lane(V, rd, sz, i), sh, esize)
                res[i] = r
                qc |= f
            _put(V, rd, sz, res, n, q, scalar)
    elif op == T.V3DIFF or op == T.S3DIFF:
        o = bits(w, 12, 4)
        esize = 8 << size
        if o == 4 or o == 6:                         # [R]ADDHN, [R]SUBHN: high halves of wide sums
            for i in range(8 >> size):
                a, b = lane(V, rn, size + 1, i), lane(V, rm, size + 1, i)
                x = (a + b if o == 4 else a - b) + (np.int64(u) << (esize - 1))
                res[i] = lsr(x, esize)
            write_narrow(V, rd, size, res, 8 >> size, q)
        else:                                        # 9 SQDMLAL, 11 SQDMLSL, 13 SQDMULL
            acc = 1 if o == 9 else (-1 if o == 11 else 0)
            cnt = 1 if scalar else 4 >> (size - 1)
            off = cnt if q and not scalar else 0     # the "2" forms read the upper halves
            for i in range(cnt):
                a = sx(lane(V, rn, size, off + i), esize, True)
                b = sx(lane(V, rm, size, off + i), esize, True)
                r, f = doubling_mul_long(a, b, lane(V, rd, size + 1, i), 2 * esize, acc)
                res[i] = r
                qc |= f
            _put(V, rd, size + 1, res, cnt, 1, scalar)
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
