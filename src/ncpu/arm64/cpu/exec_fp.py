"""Scalar floating-point executor (single and double precision).

Operands are read both as floats (for arithmetic) and as bits (for NaN
rules, sign operations and FMOV).  Results are written as floats and then
fixed up: a NaN produced from non-NaN inputs becomes the ARM default NaN.
Writing a scalar zeroes the rest of the 128-bit register, as on hardware.
FPSR cumulative exception flags (IOC DZC OFC UFC IXC) are accumulated
from operands and results (fpu.*_flags).  Not modelled: FPCR.RMode other
than round-to-nearest for arithmetic, flush-to-zero (so IDC), half precision.
"""
import numpy as np
from numba import njit

from . import decode_table as T
from .alu import M32, cond_holds
from .decoder import bits
from .exec_int import xr
from .fpu import (DN_BIT, IOC, IXC, K_ADD, K_DIV, K_MUL, K_SUB, arith_flags, cvtf_flags, default_nan, fixed_flags, fixed_to_fp,
                  fma32, fma64, fma_bits_flags, fma_flags, fma_nan, fp_to_fixed, is_nan, nan_flags, pick_nan, result_flags,
                  round_int, sqrt_flags, to_int, to_int_flags)
from .state import FPCR, FPSR, NZCV


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
            R[FPSR] |= nan_flags(xb, yb, 0, 2, dbl)
            if op == T.FNMUL_S:
                nb ^= (np.int64(1) << 63) if dbl else np.int64(0x80000000)
            _put_bits(V, rd, dbl, nb)
        elif op >= T.FMAX_S and op <= T.FMINNM_S:
            if dbl:
                _put_bits(V, rd, dbl, _minmax(op, V.f64[rn, 0], V.f64[rm, 0], xb, yb))
            else:
                _put_bits(V, rd, dbl, _minmax(op, V.f32[rn, 0], V.f32[rm, 0], xb, yb))
        else:
            kind = K_ADD if op == T.FADD_S else K_SUB if op == T.FSUB_S else K_DIV if op == T.FDIV_S else K_MUL
            if dbl:
                r = _arith2(op, V.f64[rn, 0], V.f64[rm, 0], xb, yb, dbl)
                R[FPSR] |= arith_flags(kind, V.f64[rn, 0], V.f64[rm, 0], r, True)
            else:
                r32 = _arith2(op, V.f32[rn, 0], V.f32[rm, 0], xb, yb, dbl)
                R[FPSR] |= arith_flags(kind, V.f32[rn, 0], V.f32[rm, 0], r32, False)
                r = np.float64(r32)
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
            if nan:
                R[FPSR] |= nan_flags(xb, 0, 0, 1, dbl)
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
                    xd = V.f64[rn, 0]
                    r32 = np.float32(xd)
                    if np.isinf(r32) and not np.isinf(xd):
                        R[FPSR] |= 4 | IXC                               # OFC
                    else:
                        R[FPSR] |= result_flags(r32, np.float64(r32) != xd, False)
                    _put(V, rd, False, r32, fpcr)
            elif nan:
                _put_bits(V, rd, dbl, nb)
            elif op == T.FSQRT:
                if dbl:
                    x = V.f64[rn, 0]
                    rs = np.sqrt(x) if x >= 0 or x == 0 else np.nan
                    R[FPSR] |= sqrt_flags(x, rs, True)
                    _put(V, rd, dbl, rs, fpcr)
                else:
                    x32 = V.f32[rn, 0]
                    rs32 = np.sqrt(x32) if x32 >= 0 or x32 == 0 else np.float32(np.nan)
                    R[FPSR] |= sqrt_flags(x32, rs32, False)
                    _put(V, rd, dbl, rs32, fpcr)
            else:  # FRINT*: rmode 0 N, 1 P, 2 M, 3 Z, 4 A, 6 X, 7 I (current mode = nearest)
                mode = bits(w, 15, 3)
                if mode == 6:                                   # FRINTX signals inexact
                    xv = V.f64[rn, 0] if dbl else np.float64(V.f32[rn, 0])
                    if round_int(xv, 0) != xv:
                        R[FPSR] |= IXC
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
        nan, rb = fma_nan(nb_, mb, ab, dbl, fpcr)
        if nan:
            R[FPSR] |= fma_bits_flags(nb_, mb, ab, dbl)
            _put_bits(V, rd, dbl, rb)
            return pc + 4
        if dbl:
            fa, fb_, fc = _f64(V, nb_), _f64(V, mb), _f64(V, ab)
            rf = fma64(fa, fb_, fc)
            R[FPSR] |= fma_flags(fa, fb_, fc, rf, True)
            _put(V, rd, dbl, rf, fpcr)
        else:
            ga, gb, gc = _f32(V, nb_), _f32(V, mb), _f32(V, ab)
            rg = fma32(ga, gb, gc)
            R[FPSR] |= fma_flags(ga, gb, gc, rg, False)
            _put(V, rd, dbl, rg, fpcr)
        return pc + 4
    if op == T.FCMP or op == T.FCCMP:
        if op == T.FCCMP and not cond_holds(R[NZCV], bits(w, 12, 4)):
            R[NZCV] = w & 15
            return pc + 4
        zero = op == T.FCMP and bits(w, 3, 1) == 1
        xb = _get_bits(V, rn, dbl)
        yb = 0 if zero else _get_bits(V, rm, dbl)
        if bits(w, 4, 1):                                   # FCMPE/FCCMPE: any NaN is invalid
            if is_nan(xb, dbl) or is_nan(yb, dbl):
                R[FPSR] |= IOC
        else:
            R[FPSR] |= nan_flags(xb, yb, 0, 2, dbl)
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
                rc = np.float64(np.uint64(x))
                R[FPSR] |= cvtf_flags(x, True, rc)
                _put(V, rd, dbl, rc, fpcr)
            else:
                rc32 = np.float32(np.uint64(x))
                R[FPSR] |= cvtf_flags(x, True, rc32)
                _put(V, rd, dbl, rc32, fpcr)
        elif dbl:
            rc = np.float64(x)
            R[FPSR] |= cvtf_flags(x, False, rc)
            _put(V, rd, dbl, rc, fpcr)
        else:
            rc32 = np.float32(x)
            R[FPSR] |= cvtf_flags(x, False, rc32)
            _put(V, rd, dbl, rc32, fpcr)
        return pc + 4
    if op == T.FCVT_TOINT or op == T.FCVTA_TOINT:
        mode = 4 if op == T.FCVTA_TOINT else (0, 1, 2, 3)[bits(w, 19, 2)]
        x = V.f64[rn, 0] if dbl else np.float64(V.f32[rn, 0])
        r = to_int(x, mode, 64 if sf else 32, bits(w, 16, 1) == 1)
        R[FPSR] |= to_int_flags(x, mode, 64 if sf else 32, bits(w, 16, 1) == 1)
        if rd != 31:
            R[rd] = r if sf else r & M32
        return pc + 4
    if op == T.FCVT_FIXED:
        fb = 64 - bits(w, 10, 6)
        width = 64 if sf else 32
        unsigned = bits(w, 16, 1) == 1
        if bits(w, 19, 1) == 0:
            R[FPSR] |= fixed_flags(xr(R, rn), True, dbl, width, unsigned, fb)
        else:
            R[FPSR] |= fixed_flags(_get_bits(V, rn, dbl), False, dbl, width, unsigned, fb)
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
