"""Advanced SIMD floating point, one row per form: the families of the FP
three-same, two-register, pairwise and across-lanes rows (`FADD_v`,
`FCMGE0_s`, `FMAXNMV_v`, ...), vector and scalar.

Each row's operation is a kind (KIND, from the row's name: fpu's K_ADD ..
K_MULX for the binary operations, the F_* and R_* kinds below for the rest)
and, for rounding and conversions, a rounding mode (MODE); the families read
sz and Q by name and never look at opcode bits.  Every lane goes through
fpu.py's helpers, as scalar FP does, so NaN rules and FPSR flags agree
everywhere.  Lanes are collected into a buffer and written at the end (a
destination may also be a source).  Registers: a = Vd, b = Vn, c = Vm.
FADD, FSUB, FMUL and FMLA of .2d and .4s without a NaN operand take a short
path on the registers' float views (vfp_hot); the rest of those rows' words go
to the lane-by-lane path.  vfp_hot runs out of line: inline (hot=True) it cost
7-14 ns a row instead of 70-75, but made every integer row of the loop slower
(README, the ARM64 speed table).
"""
import numpy as np

from . import decode_table as T
from .decoder import fld
from .jit import njit
from .fpu import (IXC, K_ABD, K_ADD, K_DIV, K_MAX, K_MAXNM, K_MIN, K_MINNM, K_MUL, K_MULX, K_SUB, arith_flags,
                  binop_bits_flags, cmp_bits_flags, cvtf_flags, fbits, fixed_to_fp, fma32, fma64, fma_bits_flags,
                  default_nan, fma_flags, fp_binop,
                  fp_compare, fp_fma, fp_round, fp_sqrt, fp_to_fixed, fval, i32_as_f32, i64_as_f64, is_nan,
                  nan_flags, narrow_flags, pick_nan, sqrt_flags, to_int_flags)
from .int_ops import sextn
from .rows import executes
from .state import FPCR, FPSR
from .vregs import lane, set_lane, set_scalar, write_lanes

SIGN32 = np.int64(0x80000000)
SIGN64 = np.int64(1) << 63

# Three-operand kinds beyond fpu's binary ones (K_ADD .. K_MULX = 0 .. 9); the
# compare kinds are fpu.fp_compare's 0 EQ, 1 GE, 2 GT, 3 |>=|, 4 |>| plus F_CMEQ.
F_FMLA, F_FMLS, F_CMEQ, F_CMGE, F_CMGT, F_ACGE, F_ACGT = range(10, 17)
# Two-register kinds: compare with zero, sign, round to integral, convert, square root.
(R_GT0, R_GE0, R_EQ0, R_LE0, R_LT0, R_ABS, R_NEG, R_RINT, R_RINTX, R_TOINT_S, R_TOINT_U, R_SCVTF, R_UCVTF,
 R_SQRT) = range(14)
# Rounding modes (fpu.round_int): 0 nearest even, 1 towards +inf, 2 towards -inf, 3 towards 0, 4 nearest away.
_N, _P, _M, _Z, _A = 0, 1, 2, 3, 4

_THREE = {"FADD": K_ADD, "FSUB": K_SUB, "FMUL": K_MUL, "FDIV": K_DIV, "FMAX": K_MAX, "FMIN": K_MIN,
          "FMAXNM": K_MAXNM, "FMINNM": K_MINNM, "FABD": K_ABD, "FMULX": K_MULX, "FMLA": F_FMLA,
          "FMLS": F_FMLS, "FCMEQ": F_CMEQ, "FCMGE": F_CMGE, "FCMGT": F_CMGT, "FACGE": F_ACGE, "FACGT": F_ACGT}
_PAIR = {"FADDP": K_ADD, "FMAXP": K_MAX, "FMINP": K_MIN, "FMAXNMP": K_MAXNM, "FMINNMP": K_MINNM}
_ACROSS = {"FMAXV": K_MAX, "FMINV": K_MIN, "FMAXNMV": K_MAXNM, "FMINNMV": K_MINNM}
_TWO = {"FCMGT0": (R_GT0, 0), "FCMGE0": (R_GE0, 0), "FCMEQ0": (R_EQ0, 0), "FCMLE0": (R_LE0, 0),
        "FCMLT0": (R_LT0, 0), "FABS": (R_ABS, 0), "FNEG": (R_NEG, 0), "FSQRT": (R_SQRT, 0),
        "FRINTN": (R_RINT, _N), "FRINTP": (R_RINT, _P), "FRINTM": (R_RINT, _M), "FRINTZ": (R_RINT, _Z),
        "FRINTA": (R_RINT, _A), "FRINTX": (R_RINTX, _N), "FRINTI": (R_RINT, _N),   # X, I: FPCR's mode (tested: nearest)
        "FCVTNS": (R_TOINT_S, _N), "FCVTPS": (R_TOINT_S, _P), "FCVTMS": (R_TOINT_S, _M),
        "FCVTZS": (R_TOINT_S, _Z), "FCVTAS": (R_TOINT_S, _A), "FCVTNU": (R_TOINT_U, _N),
        "FCVTPU": (R_TOINT_U, _P), "FCVTMU": (R_TOINT_U, _M), "FCVTZU": (R_TOINT_U, _Z),
        "FCVTAU": (R_TOINT_U, _A), "SCVTF": (R_SCVTF, 0), "UCVTF": (R_UCVTF, 0)}


def _rows(forms, suffix):
    return [f"{n}_{suffix}" for n in forms if f"{n}_{suffix}" in T.BY_NAME]


def _by_op(kinds: dict, pick) -> np.ndarray:
    return np.array([pick(kinds[e.name.rsplit("_", 1)[0]]) if e.name.rsplit("_", 1)[0] in kinds
                     and e.name.endswith(("_v", "_s")) else -1 for e in T.TABLE], np.int64)


KIND3 = _by_op(_THREE, lambda k: k)
KIND_PAIR = _by_op({**_PAIR, **_ACROSS}, lambda k: k)
KIND2 = _by_op(_TWO, lambda k: k[0])
MODE2 = _by_op(_TWO, lambda k: k[1])


# ---- one lane -----------------------------------------------------------------------------
@njit(cache=True)
def put_f64(V, a, i, r):
    """Lane i of register a (.2d) = r, or the default NaN where r is a NaN: the fast paths
    compute on the host's floats, whose NaN results are not the architecture's."""
    if r == r:
        V.f64[a, i] = r
    else:
        V.d[a, i] = default_nan(True)


@njit(cache=True)
def put_f32(V, a, i, r):
    """Lane i of register a (.4s) = r, or the default NaN (put_f64)."""
    if r == r:
        V.f32[a, i] = r
    else:
        V.s[a, i] = default_nan(False)


@njit(cache=True)
def three_lane(kind, x, y, acc, dbl, fpcr):
    """x op y (FMLA/FMLS: acc +- x * y; compares: all ones or zero) on bit patterns."""
    if kind <= K_MULX:
        return fp_binop(kind, x, y, dbl, fpcr)
    if kind == F_FMLA or kind == F_FMLS:
        return fp_fma(x ^ (SIGN64 if dbl else SIGN32) if kind == F_FMLS else x, y, acc, dbl, fpcr)
    return (np.int64(-1) if dbl else np.int64(0xFFFFFFFF)) if fp_compare(kind - F_CMEQ, x, y, dbl) else 0


@njit(cache=True)
def three_flags(kind, x, y, acc, dbl):
    """FPSR flags of three_lane (same arguments)."""
    if kind <= K_MULX:
        return binop_bits_flags(kind, x, y, dbl)
    if kind == F_FMLA or kind == F_FMLS:
        return fma_bits_flags(x ^ (SIGN64 if dbl else SIGN32) if kind == F_FMLS else x, y, acc, dbl)
    return cmp_bits_flags(x, y, dbl, kind != F_CMEQ)      # FCMEQ is quiet, the others signal


@njit(cache=True)
def pair_flags(kind, x, y, dbl):
    """FPSR flags of a pairwise or across-lanes step (fp_binop of kind)."""
    if kind == K_ADD:
        return binop_bits_flags(K_ADD, x, y, dbl)
    return nan_flags(x, y, 0, 2, dbl)


@njit(cache=True)
def two_lane(kind, mode, x, dbl, fpcr):
    width = 64 if dbl else 32
    if kind <= R_LT0:                                      # compare with zero
        v = fval(x, dbl)
        if v != v:
            return np.int64(0)
        if kind == R_GT0:
            r = v > 0
        elif kind == R_GE0:
            r = v >= 0
        elif kind == R_EQ0:
            r = v == 0
        elif kind == R_LE0:
            r = v <= 0
        else:
            r = v < 0
        return (np.int64(-1) if dbl else np.int64(0xFFFFFFFF)) if r else 0
    if kind == R_ABS:
        return x & ~(SIGN64 if dbl else SIGN32)
    if kind == R_NEG:
        return x ^ (SIGN64 if dbl else SIGN32)
    if kind == R_RINT or kind == R_RINTX:
        return fp_round(x, dbl, mode, fpcr)
    if kind == R_TOINT_S or kind == R_TOINT_U:
        return fp_to_fixed(x, dbl, mode, width, kind == R_TOINT_U, 0)
    if kind == R_SCVTF or kind == R_UCVTF:
        return fixed_to_fp(x, width, kind == R_UCVTF, 0, dbl)
    return fp_sqrt(x, dbl, fpcr)


@njit(cache=True)
def two_flags(kind, mode, x, dbl):
    """FPSR flags of two_lane (same arguments)."""
    width = 64 if dbl else 32
    v = fval(x, dbl)
    if kind <= R_LT0:                                      # FCMEQ #0 is quiet, the others signal
        return cmp_bits_flags(x, 0, dbl, kind != R_EQ0)
    if kind == R_ABS or kind == R_NEG:
        return 0
    if kind == R_RINT or kind == R_RINTX:
        if is_nan(x, dbl):
            return nan_flags(x, 0, 0, 1, dbl)
        if kind == R_RINTX and np.rint(v) != v:
            return IXC
        return 0
    if kind == R_TOINT_S or kind == R_TOINT_U:
        return to_int_flags(v, mode, width, kind == R_TOINT_U)
    if kind == R_SCVTF or kind == R_UCVTF:
        u = kind == R_UCVTF
        if width == 32:
            xi = (x & 0xFFFFFFFF) if u else sextn(x, 32)
        else:
            xi = x
        r = fixed_to_fp(x, width, u, 0, dbl)
        if dbl:
            return cvtf_flags(xi, u and width == 64, i64_as_f64(r))
        return cvtf_flags(xi, u and width == 64, i32_as_f32(r))
    if is_nan(x, dbl):
        return nan_flags(x, 0, 0, 1, dbl)
    if dbl:
        return sqrt_flags(v, np.sqrt(v) if v >= 0 or v == 0 else np.nan, True)
    f = np.float32(v)
    return sqrt_flags(f, np.sqrt(f) if f >= 0 or f == 0 else np.float32(np.nan), False)


# ---- the families -------------------------------------------------------------------------
# The rows gcc's vectorised FP loops live on take a short path (vfp_hot, below); out of line, see above.
_HOT = ("FADD_v", "FSUB_v", "FMUL_v", "FMLA_v")


@executes(*[n for n in _rows(_THREE, "v") if n not in _HOT])
def vfp_three(op, w, imm, pc, R, V, st, a, b, c, d):
    three_lanes(op, w, R, V, a, b, c)
    return pc + 4


@njit(cache=True)
def three_lanes(op, w, R, V, a, b, c):
    """A three-same FP row, lane by lane through the bit-pattern helpers."""
    q = fld(op, w, T.FLD_Q)
    sz = 2 + fld(op, w, T.FLD_SZ)
    dbl = sz == 3
    kind = KIND3[op]
    fpcr = R[FPCR]
    n = (4 if q else 2) >> (sz - 2)
    res = V.tmp
    for i in range(n):
        x, y, acc = lane(V, b, sz, i), lane(V, c, sz, i), lane(V, a, sz, i)
        res[i] = three_lane(kind, x, y, acc, dbl, fpcr)
        R[FPSR] |= three_flags(kind, x, y, acc, dbl)
    write_lanes(V, a, sz, res, n, q)


@executes("FADD_v", "FSUB_v", "FMUL_v", "FMLA_v")
def vfp_hot(op, w, imm, pc, R, V, st, a, b, c, d):
    """The FP rows of vectorised loops (.2d and .4s, no NaN operand) on the float views of
    the registers; other arrangements and NaN operands go to `three_lanes`."""
    q = fld(op, w, T.FLD_Q)
    dbl = fld(op, w, T.FLD_SZ) == 1
    kind = K_ADD if op == T.FADD_v else K_SUB if op == T.FSUB_v else K_MUL
    done = False
    if q == 1 and dbl:
        x0, x1, y0, y1 = V.f64[b, 0], V.f64[b, 1], V.f64[c, 0], V.f64[c, 1]
        z0, z1 = V.f64[a, 0], V.f64[a, 1]
        if x0 == x0 and x1 == x1 and y0 == y0 and y1 == y1 and (op != T.FMLA_v or (z0 == z0 and z1 == z1)):
            if op == T.FMLA_v:
                r0, r1 = fma64(x0, y0, z0), fma64(x1, y1, z1)
                R[FPSR] |= fma_flags(x0, y0, z0, r0, True) | fma_flags(x1, y1, z1, r1, True)
            else:
                r0 = x0 + y0 if op == T.FADD_v else x0 - y0 if op == T.FSUB_v else x0 * y0
                r1 = x1 + y1 if op == T.FADD_v else x1 - y1 if op == T.FSUB_v else x1 * y1
                R[FPSR] |= arith_flags(kind, x0, y0, r0, True) | arith_flags(kind, x1, y1, r1, True)
            put_f64(V, a, 0, r0)
            put_f64(V, a, 1, r1)
            done = True
    elif q == 1:
        ok = True
        for i in range(4):
            if (V.f32[b, i] != V.f32[b, i] or V.f32[c, i] != V.f32[c, i]
                    or (op == T.FMLA_v and V.f32[a, i] != V.f32[a, i])):
                ok = False
        if ok:
            flags = np.int64(0)
            for i in range(4):
                x, y, z = V.f32[b, i], V.f32[c, i], V.f32[a, i]
                if op == T.FMLA_v:
                    r = fma32(x, y, z)
                    flags |= fma_flags(x, y, z, r, False)
                else:
                    r = x + y if op == T.FADD_v else x - y if op == T.FSUB_v else x * y
                    flags |= arith_flags(kind, x, y, r, False)
                put_f32(V, a, i, r)
            R[FPSR] |= flags
            done = True
    if not done:
        three_lanes(op, w, R, V, a, b, c)
    return pc + 4


@executes(*_rows(_THREE, "s"))
def vfp_three_scalar(op, w, imm, pc, R, V, st, a, b, c, d):
    sz = 2 + fld(op, w, T.FLD_SZ)
    dbl = sz == 3
    x, y = lane(V, b, sz, 0), lane(V, c, sz, 0)
    R[FPSR] |= three_flags(KIND3[op], x, y, 0, dbl)
    set_scalar(V, a, sz, three_lane(KIND3[op], x, y, 0, dbl, R[FPCR]))
    return pc + 4


@executes(*_rows(_PAIR, "v"))
def vfp_pairwise(op, w, imm, pc, R, V, st, a, b, c, d):
    """Pairs of adjacent lanes of Vm:Vn (Vn's pairs first)."""
    q = fld(op, w, T.FLD_Q)
    sz = 2 + fld(op, w, T.FLD_SZ)
    dbl = sz == 3
    kind = KIND_PAIR[op]
    n = (4 if q else 2) >> (sz - 2)
    res = V.tmp
    for i in range(n):
        src = b if 2 * i < n else c
        j = (2 * i) % n
        x, y = lane(V, src, sz, j), lane(V, src, sz, j + 1)
        res[i] = fp_binop(kind, x, y, dbl, R[FPCR])
        R[FPSR] |= pair_flags(kind, x, y, dbl)
    write_lanes(V, a, sz, res, n, q)
    return pc + 4


@executes(*_rows(_PAIR, "s"))
def vfp_pair_scalar(op, w, imm, pc, R, V, st, a, b, c, d):
    """The two lanes of Vn (2s or 2d) into one."""
    sz = 2 + fld(op, w, T.FLD_SZ)
    dbl = sz == 3
    x, y = lane(V, b, sz, 0), lane(V, b, sz, 1)
    R[FPSR] |= pair_flags(KIND_PAIR[op], x, y, dbl)
    set_scalar(V, a, sz, fp_binop(KIND_PAIR[op], x, y, dbl, R[FPCR]))
    return pc + 4


@executes(*_rows(_ACROSS, "v"))
def vfp_across(op, w, imm, pc, R, V, st, a, b, c, d):
    """Across the four single lanes: a pairwise tree, as the ARM ARM does."""
    kind = KIND_PAIR[op]
    fpcr = R[FPCR]
    for i in range(4):
        R[FPSR] |= nan_flags(lane(V, b, 2, i), 0, 0, 1, False)
    x0 = fp_binop(kind, lane(V, b, 2, 0), lane(V, b, 2, 1), False, fpcr)
    x1 = fp_binop(kind, lane(V, b, 2, 2), lane(V, b, 2, 3), False, fpcr)
    set_scalar(V, a, 2, fp_binop(kind, x0, x1, False, fpcr))
    return pc + 4


@executes(*_rows(_TWO, "v"))
def vfp_two(op, w, imm, pc, R, V, st, a, b, c, d):
    q = fld(op, w, T.FLD_Q)
    sz = 2 + fld(op, w, T.FLD_SZ)
    dbl = sz == 3
    kind, mode = KIND2[op], MODE2[op]
    fpcr = R[FPCR]
    n = (4 if q else 2) >> (sz - 2)
    res = V.tmp
    for i in range(n):
        x = lane(V, b, sz, i)
        res[i] = two_lane(kind, mode, x, dbl, fpcr)
        R[FPSR] |= two_flags(kind, mode, x, dbl)
    write_lanes(V, a, sz, res, n, q)
    return pc + 4


@executes(*_rows(_TWO, "s"))
def vfp_two_scalar(op, w, imm, pc, R, V, st, a, b, c, d):
    sz = 2 + fld(op, w, T.FLD_SZ)
    dbl = sz == 3
    x = lane(V, b, sz, 0)
    R[FPSR] |= two_flags(KIND2[op], MODE2[op], x, dbl)
    set_scalar(V, a, sz, two_lane(KIND2[op], MODE2[op], x, dbl, R[FPCR]))
    return pc + 4


@executes("FCVTN_v", "FCVTL_v")
def vfp_convert_width(op, w, imm, pc, R, V, st, a, b, c, d):
    """FCVTN(2): double lanes to single, into the low half (FCVTN2: the upper half, the
    low one kept); FCVTL(2): the low (upper) two single lanes to double."""
    q = fld(op, w, T.FLD_Q)
    fpcr = R[FPCR]
    res = V.tmp
    if op == T.FCVTN_v:
        for i in range(2):
            x = lane(V, b, 3, i)
            res[i] = _narrow(x, fpcr)
            R[FPSR] |= narrow_flags(x)
        lo = V.d[a, 0]
        for i in range(2):
            set_lane(V, a, 2, (2 if q else 0) + i, res[i])
        if q:
            V.d[a, 0] = lo
        else:
            V.d[a, 1] = 0
        return pc + 4
    for i in range(2):
        x = lane(V, b, 2, (2 if q else 0) + i)
        res[i] = _widen(x, fpcr)
        R[FPSR] |= nan_flags(x, 0, 0, 1, False)
    V.d[a, 0] = res[0]
    V.d[a, 1] = res[1]
    return pc + 4


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
