"""AdvSIMD floating point (vector and scalar forms) and the scalar AdvSIMD
integer forms (`add d0, d1, d2`, `cmeq d0, d1, #0`).

Every lane goes through the lane helpers of fpu.py, the same ones scalar FP
uses, so NaN rules agree everywhere.  Lanes are collected into a buffer and
written at the end (a destination may also be a source).  sz is 2 for
single and 3 for double lanes; `esz` in the encodings (bit 22) picks it.
"""
import numpy as np
from numba import njit

from . import decode_table as T
from .alu import lsr, sextn
from .fpu import (IXC, K_ABD, K_ADD, K_DIV, K_MAX, K_MAXNM, K_MIN, K_MINNM, K_MUL, K_MULX, K_SUB,
                  binop_bits_flags, cmp_bits_flags, cvtf_flags, fbits, fixed_to_fp, fma_bits_flags, fp_binop,
                  fp_compare, fp_fma, fp_round, fp_sqrt, fp_to_fixed, fval, i32_as_f32, i64_as_f64, is_nan,
                  nan_flags, narrow_flags, pick_nan, sqrt_flags, to_int_flags)
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


# ---- per-lane FP kernels -------------------------------------------------------------
@njit(cache=True)
def _fp3_lane(u, a, o, x, y, d, dbl, fpcr):
    """One lane of a three-same FP operation (not pairwise)."""
    mask = np.int64(-1) if dbl else np.int64(0xFFFFFFFF)
    sign = SIGN64 if dbl else SIGN32
    if o == 24:
        return fp_binop(K_MINNM if a else K_MAXNM, x, y, dbl, fpcr)
    if o == 25:
        return fp_fma(x ^ sign if a else x, y, d, dbl, fpcr)
    if o == 26:
        if u == 1:
            return fp_binop(K_ABD, x, y, dbl, fpcr)
        return fp_binop(K_SUB if a else K_ADD, x, y, dbl, fpcr)
    if o == 27:
        return fp_binop(K_MUL if u else K_MULX, x, y, dbl, fpcr)
    if o == 28 or o == 29:
        kind = 0 if u == 0 else (1 if a == 0 else 2) + (2 if o == 29 else 0)
        return mask if fp_compare(kind, x, y, dbl) else 0
    if o == 30:
        return fp_binop(K_MIN if a else K_MAX, x, y, dbl, fpcr)
    return fp_binop(K_DIV, x, y, dbl, fpcr)


@njit(cache=True)
def _pair_op(u, a, o, x, y, dbl, fpcr):
    """The reduction of pairwise FP ops: FADDP, FMAX(NM)P, FMIN(NM)P."""
    if o == 26:
        return fp_binop(K_ADD, x, y, dbl, fpcr)
    if o == 24:
        return fp_binop(K_MINNM if a else K_MAXNM, x, y, dbl, fpcr)
    return fp_binop(K_MIN if a else K_MAX, x, y, dbl, fpcr)


@njit(cache=True)
def _fp2_lane(u, a, o, x, dbl, fpcr):
    """One lane of a two-reg-misc FP op (opcodes 12..15, 24..29, 31)."""
    mask = np.int64(-1) if dbl else np.int64(0xFFFFFFFF)
    sign = SIGN64 if dbl else SIGN32
    width = 64 if dbl else 32
    if o >= 12 and o <= 14:      # compare with zero: GT GE EQ LE LT
        v = fval(x, dbl)
        if v != v:
            return 0
        if o == 12:
            r = v >= 0 if u else v > 0
        elif o == 13:
            r = v <= 0 if u else v == 0
        else:
            r = v < 0
        return mask if r else 0
    if o == 15:
        return (x ^ sign) if u else (x & ~sign)
    if o == 24 or o == 25:
        if o == 24:
            mode = 4 if u else (1 if a else 0)             # FRINTN, FRINTP, FRINTA
        else:
            mode = 0 if u else (3 if a else 2)             # FRINTM, FRINTZ; FRINTX/I: nearest
        return fp_round(x, dbl, mode, fpcr)
    if o >= 26 and o <= 28:
        if o == 26:
            mode = 1 if a else 0                           # N / P
        elif o == 27:
            mode = 3 if a else 2                           # M / Z
        else:
            mode = 4                                       # A
        return fp_to_fixed(x, dbl, mode, width, u == 1, 0)
    if o == 29:
        return fixed_to_fp(x, width, u == 1, 0, dbl)
    return fp_sqrt(x, dbl, fpcr)


@njit(cache=True)
def _fp3_flags(u, a, o, x, y, d, dbl):
    """FPSR flags of _fp3_lane (same arguments)."""
    sign = SIGN64 if dbl else SIGN32
    if o == 24:
        return binop_bits_flags(K_MINNM if a else K_MAXNM, x, y, dbl)
    if o == 25:
        return fma_bits_flags(x ^ sign if a else x, y, d, dbl)
    if o == 26:
        return binop_bits_flags(K_ABD if u == 1 else (K_SUB if a else K_ADD), x, y, dbl)
    if o == 27:
        return binop_bits_flags(K_MUL if u else K_MULX, x, y, dbl)
    if o == 28 or o == 29:
        return cmp_bits_flags(x, y, dbl, not (u == 0 and o == 28))
    if o == 30:
        return binop_bits_flags(K_MIN if a else K_MAX, x, y, dbl)
    return binop_bits_flags(K_DIV, x, y, dbl)


@njit(cache=True)
def _pair_flags(u, a, o, x, y, dbl):
    if o == 26:
        return binop_bits_flags(K_ADD, x, y, dbl)
    return nan_flags(x, y, 0, 2, dbl)


@njit(cache=True)
def _fp2_flags(u, a, o, x, dbl):
    """FPSR flags of _fp2_lane (same arguments)."""
    width = 64 if dbl else 32
    v = fval(x, dbl)
    if o >= 12 and o <= 14:                                # FCMEQ #0 is quiet, the others signal
        return cmp_bits_flags(x, 0, dbl, not (o == 13 and u == 0))
    if o == 15:
        return 0
    if o == 24 or o == 25:
        if is_nan(x, dbl):
            return nan_flags(x, 0, 0, 1, dbl)
        if o == 25 and u == 1 and a == 0 and np.rint(v) != v:   # FRINTX
            return IXC
        return 0
    if o >= 26 and o <= 28:
        mode = (1 if a else 0) if o == 26 else ((3 if a else 2) if o == 27 else 4)
        return to_int_flags(v, mode, width, u == 1)
    if o == 29:
        if width == 32:
            xi = (x & 0xFFFFFFFF) if u == 1 else ((x & 0xFFFFFFFF) ^ 0x80000000) - 0x80000000
        else:
            xi = x
        r = fixed_to_fp(x, width, u == 1, 0, dbl)
        if dbl:
            return cvtf_flags(xi, u == 1 and width == 64, i64_as_f64(r))
        return cvtf_flags(xi, u == 1 and width == 64, i32_as_f32(r))
    if is_nan(x, dbl):
        return nan_flags(x, 0, 0, 1, dbl)
    if dbl:
        return sqrt_flags(v, np.sqrt(v) if v >= 0 or v == 0 else np.nan, True)
    f = np.float32(v)
    return sqrt_flags(f, np.sqrt(f) if f >= 0 or f == 0 else np.float32(np.nan), False)


# ---- vector forms --------------------------------------------------------------------
@njit(cache=True)
def vfp_three_same(V, w, rd, rn, rm, q, fpcr, R):
    u = bits(w, 29, 1)
    a = bits(w, 23, 1)
    dbl = bits(w, 22, 1) == 1
    o = bits(w, 11, 5)
    sz = 3 if dbl else 2
    n = (4 if q else 2) >> (sz - 2)
    res = np.empty(4, np.int64)
    pairwise = u == 1 and (o == 24 or o == 30 or (o == 26 and a == 0))
    for i in range(n):
        if pairwise:
            src = rn if 2 * i < n else rm
            j = (2 * i) % n
            x, y = lane(V, src, sz, j), lane(V, src, sz, j + 1)
            res[i] = _pair_op(u, a, o, x, y, dbl, fpcr)
            R[FPSR] |= _pair_flags(u, a, o, x, y, dbl)
        else:
            x, y, d = lane(V, rn, sz, i), lane(V, rm, sz, i), lane(V, rd, sz, i)
            res[i] = _fp3_lane(u, a, o, x, y, d, dbl, fpcr)
            R[FPSR] |= _fp3_flags(u, a, o, x, y, d, dbl)
    write_lanes(V, rd, sz, res, n, q)


@njit(cache=True)
def vfp_two_misc(V, w, rd, rn, q, fpcr, R):
    u = bits(w, 29, 1)
    a = bits(w, 23, 1)
    dbl = bits(w, 22, 1) == 1
    o = bits(w, 12, 5)
    res = np.empty(4, np.int64)
    if o == 22:                                            # FCVTN(2): double -> single
        for i in range(2):
            res[i] = _narrow(lane(V, rn, 3, i), fpcr)
            R[FPSR] |= narrow_flags(lane(V, rn, 3, i))
        lo = V.d[rd, 0]
        for i in range(2):
            set_lane(V, rd, 2, (2 if q else 0) + i, res[i])
        if q:
            V.d[rd, 0] = lo
        else:
            V.d[rd, 1] = 0
        return
    if o == 23:                                            # FCVTL(2): single -> double
        for i in range(2):
            res[i] = _widen(lane(V, rn, 2, (2 if q else 0) + i), fpcr)
            R[FPSR] |= nan_flags(lane(V, rn, 2, (2 if q else 0) + i), 0, 0, 1, False)
        V.d[rd, 0] = res[0]
        V.d[rd, 1] = res[1]
        return
    sz = 3 if dbl else 2
    n = (4 if q else 2) >> (sz - 2)
    for i in range(n):
        x = lane(V, rn, sz, i)
        res[i] = _fp2_lane(u, a, o, x, dbl, fpcr)
        R[FPSR] |= _fp2_flags(u, a, o, x, dbl)
    write_lanes(V, rd, sz, res, n, q)


@njit(cache=True)
def _narrow(x, fpcr):
    nan, r = pick_nan(x, 0, 0, 1, True, fpcr)
    if nan:
        if fpcr & (1 << 25):
            return np.int64(0x7FC00000)
        return ((r >> 32) & SIGN32) | 0x7FC00000 | ((r >> 29) & 0x3FFFFF)
    return fbits(fval(x, True), False)


@njit(cache=True)
def _widen(x, fpcr):
    nan, r = pick_nan(x, 0, 0, 1, False, fpcr)
    if nan:
        if fpcr & (1 << 25):
            return np.int64(0x7FF8000000000000)
        return ((r & SIGN32) << 32) | np.int64(0x7FF8000000000000) | ((r & 0x3FFFFF) << 29)
    return fbits(fval(x, False), True)


@njit(cache=True)
def vfp_across(V, w, rd, rn, fpcr, R):
    """FMAXNMV / FMINNMV / FMAXV / FMINV (4S only): a pairwise tree, as the ARM ARM does."""
    a = bits(w, 23, 1)
    o = 24 if bits(w, 12, 5) == 12 else 30
    for i in range(4):
        R[FPSR] |= nan_flags(lane(V, rn, 2, i), 0, 0, 1, False)
    x0 = _pair_op(1, a, o, lane(V, rn, 2, 0), lane(V, rn, 2, 1), False, fpcr)
    x1 = _pair_op(1, a, o, lane(V, rn, 2, 2), lane(V, rn, 2, 3), False, fpcr)
    _scalar(V, rd, 2, _pair_op(1, a, o, x0, x1, False, fpcr))


# ---- by element --------------------------------------------------------------------------
@njit(cache=True)
def by_element(V, w, rd, rn, q, scalar, fpcr, R):
    """FMUL/FMLA/FMLS/FMULX, MUL/MLA/MLS and the widening [SU]MULL/[SU]MLAL/[SU]MLSL by element."""
    u = bits(w, 29, 1)
    size = bits(w, 22, 2)
    o = bits(w, 12, 4)
    h, l, m = bits(w, 11, 1), bits(w, 21, 1), bits(w, 20, 1)
    rm4 = bits(w, 16, 4)
    res = np.empty(8, np.int64)
    if o == 1 or o == 5 or o == 9:                     # FP
        dbl = size == 3
        sz = 3 if dbl else 2
        idx = h if dbl else (h << 1) | l
        rm = (m << 4) | rm4
        y = lane(V, rm, sz, idx)
        sign = SIGN64 if dbl else SIGN32
        n = 1 if scalar else (4 if q else 2) >> (sz - 2)
        for i in range(n):
            x = lane(V, rn, sz, i)
            if o == 9:
                res[i] = fp_binop(K_MULX if u else K_MUL, x, y, dbl, fpcr)
                R[FPSR] |= binop_bits_flags(K_MULX if u else K_MUL, x, y, dbl)
            else:
                d = lane(V, rd, sz, i)
                res[i] = fp_fma(x ^ sign if o == 5 else x, y, d, dbl, fpcr)
                R[FPSR] |= fma_bits_flags(x ^ sign if o == 5 else x, y, d, dbl)
        if scalar:
            _scalar(V, rd, sz, res[0])
        else:
            write_lanes(V, rd, sz, res, n, q)
        return
    sz = size
    if sz == 1:
        idx = (h << 2) | (l << 1) | m
        rm = rm4
    else:
        idx = (h << 1) | l
        rm = (m << 4) | rm4
    y = lane(V, rm, sz, idx)
    if o == 10 or o == 2 or o == 6:                    # [SU]MULL, [SU]MLAL, [SU]MLSL: widening
        width = 8 << sz
        if not u:
            y = sextn(y, width)
        n = 8 >> sz                                    # the result fills all 128 bits
        first = n if q else 0                          # the "2" forms read the upper half
        for i in range(n):
            x = lane(V, rn, sz, first + i)
            p = (x if u else sextn(x, width)) * y
            if o == 10:
                res[i] = p
            elif o == 2:
                res[i] = lane(V, rd, sz + 1, i) + p
            else:
                res[i] = lane(V, rd, sz + 1, i) - p
        write_lanes(V, rd, sz + 1, res, n, 1)
        return
    n = (16 if q else 8) >> sz
    for i in range(n):
        p = lane(V, rn, sz, i) * y
        if o == 8:
            res[i] = p
        elif o == 0:
            res[i] = lane(V, rd, sz, i) + p
        else:
            res[i] = lane(V, rd, sz, i) - p
    write_lanes(V, rd, sz, res, n, q)


# ---- scalar AdvSIMD forms ------------------------------------------------------------------
@njit(cache=True)
def exec_scalar(op, w, V, fpcr, R):
    rd = w & 31
    rn = (w >> 5) & 31
    rm = (w >> 16) & 31
    u = bits(w, 29, 1)
    size = bits(w, 22, 2)
    if op == T.S3SAME:
        o = bits(w, 11, 5)
        if o >= 24:
            dbl = (size & 1) == 1
            sz = 3 if dbl else 2
            x, y = lane(V, rn, sz, 0), lane(V, rm, sz, 0)
            R[FPSR] |= _fp3_flags(u, size >> 1, o, x, y, 0, dbl)
            _scalar(V, rd, sz, _fp3_lane(u, size >> 1, o, x, y, 0, dbl, fpcr))
            return
        x = V.d[rn, 0]
        y = V.d[rm, 0]
        if o == 16:
            r = x - y if u else x + y
        elif o == 17:
            r = np.int64(-1) if ((x == y) if u else (x & y) != 0) else 0
        elif o == 8:                                   # SSHL / USHL by a signed byte
            s = sextn(y & 0xFF, 8)
            if s >= 0:
                r = 0 if s >= 64 else x << s
            elif u:
                r = 0 if -s >= 64 else lsr(x, -s)
            else:
                r = x >> min(-s, 63)
        else:
            if u:
                gt = (x ^ SIGN64) > (y ^ SIGN64)
            else:
                gt = x > y
            r = np.int64(-1) if (gt or (o == 7 and x == y)) else 0
        _scalar(V, rd, 3, r)
        return
    if op == T.S2MISC:
        o = bits(w, 12, 5)
        if o >= 12:
            dbl = (size & 1) == 1
            sz = 3 if dbl else 2
            x = lane(V, rn, sz, 0)
            R[FPSR] |= _fp2_flags(u, size >> 1, o, x, dbl)
            _scalar(V, rd, sz, _fp2_lane(u, size >> 1, o, x, dbl, fpcr))
            return
        x = V.d[rn, 0]
        if o == 8:
            r = x > 0 or (u == 1 and x == 0)
            r = np.int64(-1) if r else 0
        elif o == 9:
            r = np.int64(-1) if (x == 0 or (u == 1 and x < 0)) else 0
        elif o == 10:
            r = np.int64(-1) if x < 0 else 0
        else:
            r = -x if (u == 1 or x < 0) else x
        _scalar(V, rd, 3, r)
        return
    if op == T.SPAIR:
        o = bits(w, 12, 5)
        dbl = (size & 1) == 1
        sz = 3 if dbl else 2
        po = 26 if o == 13 else (24 if o == 12 else 30)
        x, y = lane(V, rn, sz, 0), lane(V, rn, sz, 1)
        R[FPSR] |= _pair_flags(1, size >> 1, po, x, y, dbl)
        _scalar(V, rd, sz, _pair_op(1, size >> 1, po, x, y, dbl, fpcr))
        return
    if op == T.DUP_S:                                  # DUP (element, scalar) = MOV
        imm5 = bits(w, 16, 5)
        sz = 0 if imm5 & 1 else 1 if imm5 & 2 else 2 if imm5 & 4 else 3
        _scalar(V, rd, sz, lane(V, rn, sz, imm5 >> (sz + 1)))
        return
