"""Scalar floating-point executors (single and double precision): one family per group of rows.

Operands are read both as floats (for arithmetic) and as bits (for NaN
rules, sign operations and FMOV).  Writing a scalar zeroes the rest of the
128-bit register, as on hardware; a NaN produced from non-NaN inputs is an
invalid operation and becomes the ARM default NaN.  FPSR cumulative
exception flags (IOC DZC OFC UFC IXC) come from operands and results
(fpu.*_flags).  Not modelled: FPCR.RMode other than round-to-nearest for
arithmetic, flush-to-zero (so IDC), half precision.

The hot rows (arithmetic, FMA, compare, moves, conversions to and from
integers, FSQRT) are copied into the hot loop by gen_loop; the others run
out of line (`cold=True`, cold_rows).  A hot family handles the common
case itself, double precision with no NaN operand, and passes the rest (a
NaN operand, or single precision) to its `_rare` function, which never
sees the common case: so each case is written once and the loop carries
only the short one.  V register operands are read by field name (fld)
because the same fields name X registers in the conversion rows; the X
register operands use the decoder's resolved slots (a: rd, b: rn).
"""
import numpy as np

from . import decode_table as T
from .int_ops import M32, sextn
from .jit import njit
from .nzcv import cond_holds
from .decoder import fld
from .fpu import (
    DN_BIT, IOC, IXC, K_ADD, K_DIV, K_MUL, K_SUB, arith_flags, cvtf_flags, default_nan, fixed_flags,
    fixed_to_fp, flags_settled, fma32, fma64, fma_bits_flags, fma_flags, fma_nan, fp_to_fixed, i32_as_f32,
    i64_as_f64, is_nan, nan_flags, pick_nan, result_flags, round_int, sqrt_flags, to_int, to_int_flags)
from .rows import executes, inlined, rare
from .state import FPCR, FPSR, NZCV


# ---- register access (copied into the loop at each call: V's arrays are the loop's own) ----
@inlined
def fp_bits(V, r, dbl):
    """The bits of scalar register r (a single is zero-extended)."""
    if dbl:
        return V.d[r, 0]
    return np.int64(V.s[r, 0])


@inlined
def fp_put_bits(V, r, dbl, x):
    """Write a scalar's bits, zeroing the rest of the register."""
    if dbl:
        V.d[r, 0] = x
    else:
        V.d[r, 0] = x & M32
    V.d[r, 1] = 0


@inlined
def fp_put64(V, r, x):
    """Write a double result; a NaN here came from an invalid operation: the default NaN."""
    if x == x:
        V.f64[r, 0] = x
    else:
        V.d[r, 0] = np.int64(0x7FF8000000000000)
    V.d[r, 1] = 0


@inlined
def fp_put32(V, r, x):
    """Write a single result (as fp_put64)."""
    V.d[r, 0] = 0
    V.d[r, 1] = 0
    if x == x:
        V.f32[r, 0] = x
    else:
        V.d[r, 0] = np.int64(0x7FC00000)


@njit(cache=True)
def _sign(dbl):
    return (np.int64(1) << 63) if dbl else np.int64(0x80000000)


@njit(cache=True, error_model="numpy")     # x / 0 is IEEE, not ZeroDivisionError
def _arith2(op, x, y):
    """FADD/FSUB/FMUL/FDIV/FNMUL (before its negation) in the operands' precision."""
    if op == T.FADD_S:
        return x + y
    if op == T.FSUB_S:
        return x - y
    if op == T.FDIV_S:
        return x / y
    return x * y


@njit(cache=True)
def _fcmp(x, y):
    """NZCV of FCMP."""
    if x != x or y != y:
        return 3
    if x == y:
        return 6
    if x < y:
        return 8
    return 2


# ---- two-operand arithmetic ----------------------------------------------------------
@executes("FMUL_S", "FDIV_S", "FADD_S", "FSUB_S", "FNMUL_S")
def fp_arith(op, w, pc, R, V):
    rd = fld(op, w, T.FLD_RD)
    x = V.f64[fld(op, w, T.FLD_RN), 0]
    y = V.f64[fld(op, w, T.FLD_RM), 0]
    if fld(op, w, T.FLD_FTYPE) == 1 and x == x and y == y:
        kind = K_ADD if op == T.FADD_S else K_SUB if op == T.FSUB_S else K_DIV if op == T.FDIV_S else K_MUL
        r = _arith2(op, x, y)
        if not flags_settled(R[FPSR], r, True):
            R[FPSR] |= arith_flags(kind, x, y, r, True)
        if op == T.FNMUL_S:
            r = -r
        fp_put64(V, rd, r)
        if op == T.FNMUL_S and r != r:      # FNMUL negates even the default NaN
            V.d[rd, 0] ^= np.int64(1) << 63
        return pc + 4
    _arith_rare(op, w, R, V)
    return pc + 4


@rare
def _arith_rare(op, w, R, V):
    """fp_arith with a NaN operand, or in single precision."""
    rd, rn, rm = fld(op, w, T.FLD_RD), fld(op, w, T.FLD_RN), fld(op, w, T.FLD_RM)
    dbl = fld(op, w, T.FLD_FTYPE) == 1
    xb = fp_bits(V, rn, dbl)
    yb = fp_bits(V, rm, dbl)
    nan, nb = pick_nan(xb, yb, 0, 2, dbl, R[FPCR])
    if nan:
        R[FPSR] |= nan_flags(xb, yb, 0, 2, dbl)
        if op == T.FNMUL_S:
            nb ^= _sign(dbl)
        fp_put_bits(V, rd, dbl, nb)
        return
    kind = K_ADD if op == T.FADD_S else K_SUB if op == T.FSUB_S else K_DIV if op == T.FDIV_S else K_MUL
    x, y = V.f32[rn, 0], V.f32[rm, 0]
    r = _arith2(op, x, y)
    if not flags_settled(R[FPSR], r, False):
        R[FPSR] |= arith_flags(kind, x, y, r, False)
    if op == T.FNMUL_S:
        r = -r
    fp_put32(V, rd, r)
    if op == T.FNMUL_S and r != r:
        V.d[rd, 0] ^= np.int64(0x80000000)


@executes("FMAX_S", "FMIN_S", "FMAXNM_S", "FMINNM_S", cold=True)
def fp_minmax(op, w, pc, R, V):
    """(-0, +0) are ordered by sign; FMAXNM/FMINNM: a single quiet NaN loses to a number."""
    rd, rn, rm = fld(op, w, T.FLD_RD), fld(op, w, T.FLD_RN), fld(op, w, T.FLD_RM)
    dbl = fld(op, w, T.FLD_FTYPE) == 1
    xb = fp_bits(V, rn, dbl)
    yb = fp_bits(V, rm, dbl)
    nan, nb = pick_nan(xb, yb, 0, 2, dbl, R[FPCR])
    if op == T.FMAXNM_S or op == T.FMINNM_S:
        if _is_quiet(xb, dbl) and not is_nan(yb, dbl):
            nan, nb = True, yb
        elif _is_quiet(yb, dbl) and not is_nan(xb, dbl):
            nan, nb = True, xb
    if nan:
        R[FPSR] |= nan_flags(xb, yb, 0, 2, dbl)
        fp_put_bits(V, rd, dbl, nb)
        return pc + 4
    x = V.f64[rn, 0] if dbl else np.float64(V.f32[rn, 0])
    y = V.f64[rm, 0] if dbl else np.float64(V.f32[rm, 0])
    is_max = op == T.FMAX_S or op == T.FMAXNM_S
    if x == y:
        r = (xb & yb) if is_max else (xb | yb)
    elif (x > y) == is_max:
        r = xb
    else:
        r = yb
    fp_put_bits(V, rd, dbl, r)
    return pc + 4


@njit(cache=True)
def _is_quiet(b, dbl):
    return is_nan(b, dbl) and (b & (0x0008000000000000 if dbl else 0x00400000)) != 0


# ---- one operand -------------------------------------------------------------------
@executes("FMOV_R", "FABS", "FNEG")
def fp_sign(op, w, pc, R, V):
    rd, rn = fld(op, w, T.FLD_RD), fld(op, w, T.FLD_RN)
    dbl = fld(op, w, T.FLD_FTYPE) == 1
    xb = fp_bits(V, rn, dbl)
    if op == T.FABS:
        xb = xb & ~_sign(dbl)
    elif op == T.FNEG:
        xb = xb ^ _sign(dbl)
    fp_put_bits(V, rd, dbl, xb)
    return pc + 4


@executes("FSQRT")
def fsqrt(op, w, pc, R, V):
    x = V.f64[fld(op, w, T.FLD_RN), 0]
    if fld(op, w, T.FLD_FTYPE) == 1 and x >= 0:        # not NaN, not negative, not -0
        r = np.sqrt(x)
        R[FPSR] |= sqrt_flags(x, r, True)
        fp_put64(V, fld(op, w, T.FLD_RD), r)
        return pc + 4
    _unary(op, w, R, V)
    return pc + 4


@executes("FCVT_SD", "FRINT", cold=True)
def fp_unary(op, w, pc, R, V):
    _unary(op, w, R, V)
    return pc + 4


@rare
def _unary(op, w, R, V):
    """FCVT (single <-> double), FRINT*, and FSQRT's rare cases (a NaN, a negative, -0, single)."""
    rd, rn = fld(op, w, T.FLD_RD), fld(op, w, T.FLD_RN)
    dbl = fld(op, w, T.FLD_FTYPE) == 1
    fpcr = R[FPCR]
    xb = fp_bits(V, rn, dbl)
    nan, nb = pick_nan(xb, 0, 0, 1, dbl, fpcr)
    if nan:
        R[FPSR] |= nan_flags(xb, 0, 0, 1, dbl)
    if op == T.FCVT_SD:
        to_dbl = fld(op, w, T.FLD_OPC) == 1
        if nan:
            if fpcr & DN_BIT:
                fp_put_bits(V, rd, to_dbl, default_nan(to_dbl))
            elif to_dbl:   # widen the payload: sign, quiet bit, top 22 fraction bits
                fp_put_bits(V, rd, True, ((nb & 0x80000000) << 32) | np.int64(0x7FF8000000000000)
                            | ((nb & 0x3FFFFF) << 29))
            else:
                fp_put_bits(V, rd, False, ((nb >> 32) & 0x80000000) | 0x7FC00000 | ((nb >> 29) & 0x3FFFFF))
        elif to_dbl:
            fp_put64(V, rd, np.float64(V.f32[rn, 0]))
        else:
            xd = V.f64[rn, 0]
            r32 = np.float32(xd)
            if np.isinf(r32) and not np.isinf(xd):
                R[FPSR] |= 4 | IXC                               # OFC
            else:
                R[FPSR] |= result_flags(r32, np.float64(r32) != xd, False)
            fp_put32(V, rd, r32)
    elif nan:
        fp_put_bits(V, rd, dbl, nb)
    elif op == T.FSQRT:
        if dbl:
            x = V.f64[rn, 0]
            rs = np.sqrt(x) if x >= 0 or x == 0 else np.nan
            R[FPSR] |= sqrt_flags(x, rs, True)
            fp_put64(V, rd, rs)
        else:
            x32 = V.f32[rn, 0]
            rs32 = np.sqrt(x32) if x32 >= 0 or x32 == 0 else np.float32(np.nan)
            R[FPSR] |= sqrt_flags(x32, rs32, False)
            fp_put32(V, rd, rs32)
    else:  # FRINT*: rmode 0 N, 1 P, 2 M, 3 Z, 4 A, 6 X, 7 I (current mode = nearest)
        mode = fld(op, w, T.FLD_RMODE)
        xv = V.f64[rn, 0] if dbl else np.float64(V.f32[rn, 0])
        if mode == 6 and round_int(xv, 0) != xv:          # FRINTX signals inexact
            R[FPSR] |= IXC
        if mode >= 6:
            mode = 0
        if dbl:
            fp_put64(V, rd, round_int(xv, mode))
        else:
            fp_put32(V, rd, np.float32(round_int(xv, mode)))


# ---- fused multiply-add ----------------------------------------------------------------
@executes("FMADD", "FMSUB", "FNMADD", "FNMSUB")
def fp_fma(op, w, pc, R, V):
    """The negations act on the inputs (so a negated NaN input comes out negated)."""
    x = V.f64[fld(op, w, T.FLD_RN), 0]
    y = V.f64[fld(op, w, T.FLD_RM), 0]
    z = V.f64[fld(op, w, T.FLD_RA), 0]
    if fld(op, w, T.FLD_FTYPE) == 1 and x == x and y == y and z == z:
        if op == T.FMSUB or op == T.FNMADD:
            x = -x
        if op == T.FNMADD or op == T.FNMSUB:
            z = -z
        r = fma64(x, y, z)
        if not flags_settled(R[FPSR], r, True):
            R[FPSR] |= fma_flags(x, y, z, r, True)
        fp_put64(V, fld(op, w, T.FLD_RD), r)
        return pc + 4
    _fma_rare(op, w, R, V)
    return pc + 4


@rare
def _fma_rare(op, w, R, V):
    """fp_fma with a NaN operand, or in single precision."""
    rd = fld(op, w, T.FLD_RD)
    dbl = fld(op, w, T.FLD_FTYPE) == 1
    sign = _sign(dbl)
    xb = fp_bits(V, fld(op, w, T.FLD_RN), dbl)
    yb = fp_bits(V, fld(op, w, T.FLD_RM), dbl)
    zb = fp_bits(V, fld(op, w, T.FLD_RA), dbl)
    if op == T.FMSUB or op == T.FNMADD:
        xb ^= sign
    if op == T.FNMADD or op == T.FNMSUB:
        zb ^= sign
    nan, rb = fma_nan(xb, yb, zb, dbl, R[FPCR])
    if nan:
        R[FPSR] |= fma_bits_flags(xb, yb, zb, dbl)
        fp_put_bits(V, rd, dbl, rb)
        return
    x, y, z = i32_as_f32(xb), i32_as_f32(yb), i32_as_f32(zb)
    r = fma32(x, y, z)
    if not flags_settled(R[FPSR], r, False):
        R[FPSR] |= fma_flags(x, y, z, r, False)
    fp_put32(V, rd, r)


# ---- compare and select ----------------------------------------------------------------
@executes("FCMP", "FCCMP")
def fcmp(op, w, pc, R, V):
    """FCMPE/FCCMPE (e = 1): any NaN operand is invalid; FCMP: a signalling one."""
    if op == T.FCCMP:
        if not cond_holds(R[NZCV], fld(op, w, T.FLD_COND)):
            R[NZCV] = fld(op, w, T.FLD_NZCV)
            return pc + 4
    x = V.f64[fld(op, w, T.FLD_RN), 0]
    y = 0.0 if fld(op, w, T.FLD_Z) == 1 else V.f64[fld(op, w, T.FLD_RM), 0]
    if fld(op, w, T.FLD_FTYPE) == 1 and x == x and y == y:
        R[NZCV] = _fcmp(x, y)
        return pc + 4
    _compare_rare(op, w, R, V)
    return pc + 4


@rare
def _compare_rare(op, w, R, V):
    """fcmp with a NaN operand, or in single precision (its condition held)."""
    dbl = fld(op, w, T.FLD_FTYPE) == 1
    zero = fld(op, w, T.FLD_Z) == 1
    xb = fp_bits(V, fld(op, w, T.FLD_RN), dbl)
    yb = np.int64(0)
    if not zero:
        yb = fp_bits(V, fld(op, w, T.FLD_RM), dbl)
    if fld(op, w, T.FLD_E):
        if is_nan(xb, dbl) or is_nan(yb, dbl):
            R[FPSR] |= IOC
    else:
        R[FPSR] |= nan_flags(xb, yb, 0, 2, dbl)
    if dbl:
        R[NZCV] = _fcmp(i64_as_f64(xb), i64_as_f64(yb))
    else:
        R[NZCV] = _fcmp(i32_as_f32(xb), i32_as_f32(yb))


@executes("FCSEL")
def fp_select(op, w, pc, R, V):
    dbl = fld(op, w, T.FLD_FTYPE) == 1
    src = fld(op, w, T.FLD_RN) if cond_holds(R[NZCV], fld(op, w, T.FLD_COND)) else fld(op, w, T.FLD_RM)
    xb = fp_bits(V, src, dbl)
    fp_put_bits(V, fld(op, w, T.FLD_RD), dbl, xb)
    return pc + 4


# ---- moves and conversions ---------------------------------------------------------------
@executes("FMOV_I")
def fp_mov_imm(op, w, imm, pc, R, V):
    """imm: the expanded constant's bits (decoder)."""
    fp_put_bits(V, fld(op, w, T.FLD_RD), fld(op, w, T.FLD_FTYPE) == 1, imm)
    return pc + 4


@executes("FMOV_GEN")
def fp_mov_gen(op, w, pc, R, V, a, b):
    """FMOV between an X/W register (slot a or b) and V's low or (hi) upper 64 bits."""
    sf = fld(op, w, T.FLD_SF)
    hi = fld(op, w, T.FLD_HI)
    dbl = fld(op, w, T.FLD_FTYPE) == 1
    if fld(op, w, T.FLD_TOFP):
        rd = fld(op, w, T.FLD_RD)
        if hi:
            V.d[rd, 1] = R[b]
        else:
            fp_put_bits(V, rd, dbl, R[b] if sf else R[b] & M32)
    else:
        rn = fld(op, w, T.FLD_RN)
        if hi:
            x = V.d[rn, 1]
        else:
            x = fp_bits(V, rn, dbl)
        R[a] = x if sf else x & M32
    return pc + 4


@executes("XCVTF")
def fp_from_int(op, w, pc, R, V, b):
    """SCVTF/UCVTF from an X/W register (slot b)."""
    rd = fld(op, w, T.FLD_RD)
    sf = fld(op, w, T.FLD_SF)
    u = fld(op, w, T.FLD_U)
    x = R[b]
    if not sf:
        x = (x & M32) if u else sextn(x, 32)
    if fld(op, w, T.FLD_FTYPE) == 1:
        if u and sf:                    # unsigned 64-bit
            r64 = np.float64(np.uint64(x))
            R[FPSR] |= cvtf_flags(x, True, r64)
        else:
            r64 = np.float64(x)
            R[FPSR] |= cvtf_flags(x, False, r64)
        fp_put64(V, rd, r64)
    else:
        if u and sf:
            r32 = np.float32(np.uint64(x))
            R[FPSR] |= cvtf_flags(x, True, r32)
        else:
            r32 = np.float32(x)
            R[FPSR] |= cvtf_flags(x, False, r32)
        fp_put32(V, rd, r32)
    return pc + 4


@executes("FCVT_TOINT", "FCVTA_TOINT")
def fp_to_int(op, w, pc, R, V, a):
    """FCVT{N,P,M,Z,A}{S,U} to an X/W register (slot a): saturating, NaN -> 0."""
    sf = fld(op, w, T.FLD_SF)
    u = fld(op, w, T.FLD_U) == 1
    mode = 4 if op == T.FCVTA_TOINT else fld(op, w, T.FLD_RMODE)
    rn = fld(op, w, T.FLD_RN)
    x = V.f64[rn, 0] if fld(op, w, T.FLD_FTYPE) == 1 else np.float64(V.f32[rn, 0])
    width = 64 if sf else 32
    r = to_int(x, mode, width, u)
    R[FPSR] |= to_int_flags(x, mode, width, u)
    R[a] = r if sf else r & M32
    return pc + 4


@executes("FCVT_FIXED", cold=True)
def fp_fixed(op, w, pc, R, V, a, b):
    """[SU]CVTF Vd, Xn, #fbits (rmode 0) and FCVTZ[SU] Xd, Vn, #fbits (rmode 3)."""
    sf = fld(op, w, T.FLD_SF)
    dbl = fld(op, w, T.FLD_FTYPE) == 1
    fb = 64 - fld(op, w, T.FLD_SCALE)
    width = 64 if sf else 32
    unsigned = fld(op, w, T.FLD_OPCODE) & 1 == 1
    if fld(op, w, T.FLD_RMODE) == 0:
        R[FPSR] |= fixed_flags(R[b], True, dbl, width, unsigned, fb)
        fp_put_bits(V, fld(op, w, T.FLD_RD), dbl, fixed_to_fp(R[b], width, unsigned, fb, dbl))
    else:
        xb = fp_bits(V, fld(op, w, T.FLD_RN), dbl)
        R[FPSR] |= fixed_flags(xb, False, dbl, width, unsigned, fb)
        r = fp_to_fixed(xb, dbl, 3, width, unsigned, fb)
        R[a] = r if sf else r & M32
    return pc + 4
