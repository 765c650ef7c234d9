"""Scalar floating-point executor (single and double precision).

Operands are read both as floats (for arithmetic) and as bits (for NaN
rules, sign operations and FMOV).  Results are written as floats and then
fixed up: a NaN produced from non-NaN inputs becomes the ARM default NaN.
Writing a scalar zeroes the rest of the 128-bit register, as on hardware.
Not modelled: FPSR cumulative exception flags, FPCR.RMode other than
round-to-nearest for arithmetic, flush-to-zero, half precision.
"""
import numpy as np
from numba import njit

from . import decode_table as T
from .alu import M32, cond_holds
from .decoder import bits
from .exec_int import xr
from .fpu import DN_BIT, fixed_to_fp, fp_to_fixed, default_nan, fma32, fma64, is_nan, pick_nan, round_int, to_int
from .state import FPCR, NZCV


@njit(cache=True)
def _get_bits(V, r, dbl):
    return V.d[r, 0] if dbl else np.int64(V.s[r, 0])


@njit(cache=True)
def _put_bits(V, r, dbl, b):
    V.d[r, 0] = b if dbl else b & M32
    V.d[r, 1] = 0


@njit(cache=True)
def _put(V, r, dbl, x, fpcr):
    """Write a float result; a NaN here came from an invalid operation."""
    V.d[r, 1] = 0
    if x != x:
        V.d[r, 0] = default_nan(dbl)
    elif dbl:
        V.f64[r, 0] = x
    else:
        V.d[r, 0] = 0
        V.f32[r, 0] = x


@njit(cache=True, error_model="numpy")     # x / 0 is IEEE, not ZeroDivisionError
def _arith2(op, x, y, xb, yb, dbl):
    """Two-operand arithmetic; returns (is_bits, float, bits)."""
    if op == T.FADD_S:
        return x + y
    if op == T.FSUB_S:
        return x - y
    if op == T.FMUL_S or op == T.FNMUL_S:
        return x * y
    return x / y      # FDIV


@njit(cache=True)
def _minmax(op, x, y, xb, yb):
    """FMAX/FMIN/FMAXNM/FMINNM on non-NaN operands: (-0, +0) ordered by sign."""
    is_max = op == T.FMAX_S or op == T.FMAXNM_S
    if x == y:
        return (xb & yb) if is_max else (xb | yb)
    if (x > y) == is_max:
        return xb
    return yb


@njit(cache=True)
def _fcmp(x, y):
    if x != x or y != y:
        return 3
    if x == y:
        return 6
    if x < y:
        return 8
    return 2


@njit(cache=True)
def exec_fp(op, w, imm, pc, R, V, st):
    rd = w & 31
    rn = (w >> 5) & 31
    rm = (w >> 16) & 31
    ftype = bits(w, 22, 2)
    dbl = ftype == 1
    fpcr = R[FPCR]
    if op <= T.FNMUL_S:
        xb = _get_bits(V, rn, dbl)
        yb = _get_bits(V, rm, dbl)
        nan, nb = pick_nan(xb, yb, 0, 2, dbl, fpcr)
        if op == T.FMAXNM_S or op == T.FMINNM_S:
            # a single quiet NaN loses to a number
            if nan and not (is_nan(xb, dbl) and is_nan(yb, dbl)) and nb == xb | nb == yb:
                pass
            xq = is_nan(xb, dbl) and not _is_s(xb, dbl)
            yq = is_nan(yb, dbl) and not _is_s(yb, dbl)
            if xq and not is_nan(yb, dbl):
                nan, nb = True, yb
            elif yq and not is_nan(xb, dbl):
                nan, nb = True, xb
        if nan:
            if op == T.FNMUL_S:
                nb ^= (np.int64(1) << 63) if dbl else np.int64(0x80000000)
            _put_bits(V, rd, dbl, nb)
        elif op >= T.FMAX_S and op <= T.FMINNM_S:
            if dbl:
                _put_bits(V, rd, dbl, _minmax(op, V.f64[rn, 0], V.f64[rm, 0], xb, yb))
            else:
                _put_bits(V, rd, dbl, _minmax(op, V.f32[rn, 0], V.f32[rm, 0], xb, yb))
        else:
            if dbl:
                r = _arith2(op, V.f64[rn, 0], V.f64[rm, 0], xb, yb, dbl)
            else:
                r = np.float64(_arith2(op, V.f32[rn, 0], V.f32[rm, 0], xb, yb, dbl))
            if op == T.FNMUL_S and r == r:
                r = -r
            if dbl:
                _put(V, rd, dbl, r, fpcr)
            else:
                _put(V, rd, dbl, np.float32(r), fpcr)
            if op == T.FNMUL_S and r != r:   # FNMUL negates even the default NaN
                V.d[rd, 0] ^= (np.int64(1) << 63) if dbl else np.int64(0x80000000)
        return pc + 4
    if op <= T.FRINT:
        xb = _get_bits(V, rn, dbl)
        sign = (np.int64(1) << 63) if dbl else np.int64(0x80000000)
        if op == T.FMOV_R:
            _put_bits(V, rd, dbl, xb)
        elif op == T.FABS:
            _put_bits(V, rd, dbl, xb & ~sign)
        elif op == T.FNEG:
            _put_bits(V, rd, dbl, xb ^ sign)
        else:
            nan, nb = pick_nan(xb, 0, 0, 1, dbl, fpcr)
            if op == T.FCVT_SD:
                to_dbl = bits(w, 15, 2) == 1
                if nan:
                    if fpcr & DN_BIT:
                        _put_bits(V, rd, to_dbl, default_nan(to_dbl))
                    elif to_dbl:   # widen the payload: sign, quiet bit, top 22 fraction bits
                        _put_bits(V, rd, True, ((nb & 0x80000000) << 32) | np.int64(0x7FF8000000000000)
                                  | ((nb & 0x3FFFFF) << 29))
                    else:
                        _put_bits(V, rd, False, ((nb >> 32) & 0x80000000) | 0x7FC00000
                                  | ((nb >> 29) & 0x3FFFFF))
                elif to_dbl:
                    _put(V, rd, True, np.float64(V.f32[rn, 0]), fpcr)
                else:
                    _put(V, rd, False, np.float32(V.f64[rn, 0]), fpcr)
            elif nan:
                _put_bits(V, rd, dbl, nb)
            elif op == T.FSQRT:
                if dbl:
                    x = V.f64[rn, 0]
                    _put(V, rd, dbl, np.sqrt(x) if x >= 0 or x == 0 else np.nan, fpcr)
                else:
                    x32 = V.f32[rn, 0]
                    _put(V, rd, dbl, np.sqrt(x32) if x32 >= 0 or x32 == 0 else np.float32(np.nan), fpcr)
            else:  # FRINT*: rmode 0 N, 1 P, 2 M, 3 Z, 4 A, 6 X, 7 I (current mode = nearest)
                mode = bits(w, 15, 3)
                if mode >= 6:
                    mode = 0
                if dbl:
                    _put(V, rd, dbl, round_int(V.f64[rn, 0], mode), fpcr)
                else:
                    _put(V, rd, dbl, round_int(V.f32[rn, 0], mode), fpcr)
        return pc + 4
    if op <= T.FNMSUB:
        ra = bits(w, 10, 5)
        sign = (np.int64(1) << 63) if dbl else np.int64(0x80000000)
        nb_ = _get_bits(V, rn, dbl)
        mb = _get_bits(V, rm, dbl)
        ab = _get_bits(V, ra, dbl)
        # negations act on the inputs (so a negated NaN input comes out negated)
        if op == T.FMSUB or op == T.FNMADD:
            nb_ ^= sign
        if op == T.FNMADD or op == T.FNMSUB:
            ab ^= sign
        nan, rb = pick_nan(ab, nb_, mb, 3, dbl, fpcr)
        if nan:
            # inf * 0 + qNaN is invalid: default NaN (ARM FPMulAdd)
            if not is_nan(nb_, dbl) and not is_nan(mb, dbl) and _inf_zero(nb_, mb, dbl):
                rb = default_nan(dbl)
            _put_bits(V, rd, dbl, rb)
            return pc + 4
        if dbl:
            _put(V, rd, dbl, fma64(_f64(V, nb_), _f64(V, mb), _f64(V, ab)), fpcr)
        else:
            _put(V, rd, dbl, fma32(_f32(V, nb_), _f32(V, mb), _f32(V, ab)), fpcr)
        return pc + 4
    if op == T.FCMP or op == T.FCCMP:
        if op == T.FCCMP and not cond_holds(R[NZCV], bits(w, 12, 4)):
            R[NZCV] = w & 15
            return pc + 4
        zero = op == T.FCMP and bits(w, 3, 1) == 1
        if dbl:
            R[NZCV] = _fcmp(V.f64[rn, 0], 0.0 if zero else V.f64[rm, 0])
        else:
            R[NZCV] = _fcmp(V.f32[rn, 0], np.float32(0.0) if zero else V.f32[rm, 0])
        return pc + 4
    if op == T.FCSEL:
        src = rn if cond_holds(R[NZCV], bits(w, 12, 4)) else rm
        _put_bits(V, rd, dbl, _get_bits(V, src, dbl))
        return pc + 4
    if op == T.FMOV_I:
        _put_bits(V, rd, dbl, imm)
        return pc + 4
    sf = bits(w, 31, 1)
    if op == T.XCVTF:
        x = xr(R, rn)
        if not sf:
            x = (x & M32) if bits(w, 16, 1) else ((x & M32) ^ 0x80000000) - 0x80000000
        if bits(w, 16, 1) and sf:       # unsigned 64-bit
            if dbl:
                _put(V, rd, dbl, np.float64(np.uint64(x)), fpcr)
            else:
                _put(V, rd, dbl, np.float32(np.uint64(x)), fpcr)
        elif dbl:
            _put(V, rd, dbl, np.float64(x), fpcr)
        else:
            _put(V, rd, dbl, np.float32(x), fpcr)
        return pc + 4
    if op == T.FCVT_TOINT or op == T.FCVTA_TOINT:
        mode = 4 if op == T.FCVTA_TOINT else (0, 1, 2, 3)[bits(w, 19, 2)]
        x = V.f64[rn, 0] if dbl else np.float64(V.f32[rn, 0])
        r = to_int(x, mode, 64 if sf else 32, bits(w, 16, 1) == 1)
        if rd != 31:
            R[rd] = r if sf else r & M32
        return pc + 4
    if op == T.FCVT_FIXED:
        fb = 64 - bits(w, 10, 6)
        width = 64 if sf else 32
        unsigned = bits(w, 16, 1) == 1
        if bits(w, 19, 1) == 0:                  # [SU]CVTF Rd(fp), Rn(int), #fbits
            _put_bits(V, rd, dbl, fixed_to_fp(xr(R, rn), width, unsigned, fb, dbl))
        elif rd != 31:                           # FCVTZ[SU] Rd(int), Rn(fp), #fbits
            r = fp_to_fixed(_get_bits(V, rn, dbl), dbl, 3, width, unsigned, fb)
            R[rd] = r if sf else r & M32
        return pc + 4
    # FMOV_GEN
    if bits(w, 16, 1):                   # general -> FP
        x = xr(R, rn)
        if bits(w, 19, 1):
            V.d[rd, 1] = x
        else:
            _put_bits(V, rd, dbl, x if sf else x & M32)
    else:
        x = V.d[rn, 1] if bits(w, 19, 1) else _get_bits(V, rn, dbl)
        if rd != 31:
            R[rd] = x if sf else x & M32
    return pc + 4


@njit(cache=True)
def _is_s(b, dbl):
    if dbl:
        return (b & 0x0008000000000000) == 0
    return (b & 0x00400000) == 0


@njit(cache=True)
def _inf_zero(a, b, dbl):
    mag = np.int64(0x7FFFFFFFFFFFFFFF) if dbl else np.int64(0x7FFFFFFF)
    inf = np.int64(0x7FF0000000000000) if dbl else np.int64(0x7F800000)
    ai, bi = (a & mag) == inf, (b & mag) == inf
    az, bz = (a & mag) == 0, (b & mag) == 0
    return (ai and bz) or (az and bi)


@njit(cache=True)
def _f64(V, b):
    """Bits -> float64 through scratch register slot (V has no spare, use a 1-elem array)."""
    a = np.empty(1, np.int64)
    a[0] = b
    return a.view(np.float64)[0]


@njit(cache=True)
def _f32(V, b):
    a = np.empty(1, np.int32)
    a[0] = np.int32(b & 0xFFFFFFFF)
    return a.view(np.float32)[0]
