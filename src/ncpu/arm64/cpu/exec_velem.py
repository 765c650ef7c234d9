"""Advanced SIMD by element (`mul v0.4s, v1.4s, v2.s[3]`), vector and scalar:
the families of the `*_vi` / `*_si` rows.

The element operand is lane `idx` of Vm, with the index and the register
packed by the lane size (`element` below): 16-bit lanes take H:L:M as the
index and Vm from v0-v15; 32-bit lanes H:L and Vm = M:Rm; 64-bit (FP double)
H alone.  The row's `vm` field is the 5 bits M:Rm, so c arrives as M:Rm.
Lanes are collected into a buffer and written at the end (a destination
may also be a source); the widening forms (SMULL, SQDMLAL, ...) read the
upper half of Vn when Q = 1 (the "2" forms).  A saturated lane sets FPSR.QC.
"""
import numpy as np

from . import decode_table as T
from .int_ops import sextn
from .decoder import fld
from .exec_sat import QC
from .exec_vfparith import put_f32, put_f64
from .fpu import K_MUL, K_MULX, binop_bits_flags, flags_settled, fma32, fma64, fma_bits_flags, fma_flags, fp_binop, fp_fma
from .jit import njit
from .rows import executes
from .sat_lanes import doubling_mul_high, doubling_mul_long, sx
from .state import FPCR, FPSR
from .vregs import lane, set_scalar, write_lanes

SIGN32 = np.int64(0x80000000)
SIGN64 = np.int64(1) << 63


@njit(cache=True)
def element(V, sz, c, h, l):
    """Lane `idx` of Vm as a zero-extended int64, for lanes of 8 << sz bits (c = M:Rm)."""
    if sz == 1:
        return lane(V, c & 15, 1, (h << 2) | (l << 1) | (c >> 4))
    if sz == 2:
        return lane(V, c, 2, (h << 1) | l)
    return lane(V, c, 3, h)


@executes("MUL_vi", "MLA_vi", "MLS_vi")
def velem_int(op, w, imm, pc, R, V, st, a, b, c, d):
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    y = element(V, sz, c, fld(op, w, T.FLD_H), fld(op, w, T.FLD_L))
    n = (16 if q else 8) >> sz
    res = V.tmp
    for i in range(n):
        p = lane(V, b, sz, i) * y
        if op == T.MUL_vi:
            res[i] = p
        elif op == T.MLA_vi:
            res[i] = lane(V, a, sz, i) + p
        else:
            res[i] = lane(V, a, sz, i) - p
    write_lanes(V, a, sz, res, n, q)
    return pc + 4


@executes("SMULL_vi", "UMULL_vi", "SMLAL_vi", "UMLAL_vi", "SMLSL_vi", "UMLSL_vi")
def velem_long(op, w, imm, pc, R, V, st, a, b, c, d):
    """Products twice as wide as the lanes (of Vn's upper half: the "2" forms), added or subtracted."""
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    esize = 8 << sz
    signed = op == T.SMULL_vi or op == T.SMLAL_vi or op == T.SMLSL_vi
    y = element(V, sz, c, fld(op, w, T.FLD_H), fld(op, w, T.FLD_L))
    if signed:
        y = sextn(y, esize)
    n = 8 >> sz                                        # the result fills all 128 bits
    first = n if q else 0
    res = V.tmp
    for i in range(n):
        x = lane(V, b, sz, first + i)
        p = (sextn(x, esize) if signed else x) * y
        if op == T.SMULL_vi or op == T.UMULL_vi:
            res[i] = p
        elif op == T.SMLAL_vi or op == T.UMLAL_vi:
            res[i] = lane(V, a, sz + 1, i) + p
        else:
            res[i] = lane(V, a, sz + 1, i) - p
    write_lanes(V, a, sz + 1, res, n, 1)
    return pc + 4


@njit(cache=True)
def fma_lanes_fast(R, V, a, b, c, h, l, dbl, neg):
    """FMLA/FMLS .2d or .4s by element (gcc's vectorised matrix products) on the float views of
    the registers, with no buffer; False when an operand is a NaN (the lane-by-lane path then).
    Negating x before the fused multiply-add is exact, so fma(-x, y, acc) is FMLS."""
    fpsr = R[FPSR]
    flags = np.int64(0)
    if dbl:
        y = V.f64[c, h]
        x0, x1, z0, z1 = V.f64[b, 0], V.f64[b, 1], V.f64[a, 0], V.f64[a, 1]
        if not (y == y and x0 == x0 and x1 == x1 and z0 == z0 and z1 == z1):
            return False
        if neg:
            x0, x1 = -x0, -x1
        r0, r1 = fma64(x0, y, z0), fma64(x1, y, z1)
        if not (flags_settled(fpsr, r0, True) and flags_settled(fpsr, r1, True)):
            flags = fma_flags(x0, y, z0, r0, True) | fma_flags(x1, y, z1, r1, True)
        put_f64(V, a, 0, r0)
        put_f64(V, a, 1, r1)
    else:
        y = V.f32[c, (h << 1) | l]
        if y != y:
            return False
        for i in range(4):
            if V.f32[b, i] != V.f32[b, i] or V.f32[a, i] != V.f32[a, i]:
                return False
        for i in range(4):
            x, z = V.f32[b, i], V.f32[a, i]
            r = fma32(-x if neg else x, y, z)
            if not flags_settled(fpsr, r, False):
                flags |= fma_flags(-x if neg else x, y, z, r, False)
            put_f32(V, a, i, r)
    if flags:
        R[FPSR] = fpsr | flags
    return True


@executes("FMLA_vi", "FMLS_vi", "FMUL_vi", "FMULX_vi", "FMLA_si", "FMLS_si", "FMUL_si", "FMULX_si")
def velem_fp(op, w, imm, pc, R, V, st, a, b, c, d):
    q = fld(op, w, T.FLD_Q)
    sz = 2 + fld(op, w, T.FLD_SZ)
    dbl = sz == 3
    scalar = op == T.FMLA_si or op == T.FMLS_si or op == T.FMUL_si or op == T.FMULX_si
    mul = op == T.FMUL_vi or op == T.FMUL_si or op == T.FMULX_vi or op == T.FMULX_si
    kind = K_MULX if op == T.FMULX_vi or op == T.FMULX_si else K_MUL
    neg = (SIGN64 if dbl else SIGN32) if op == T.FMLS_vi or op == T.FMLS_si else 0
    if q == 1 and not scalar and not mul and fma_lanes_fast(R, V, a, b, c, fld(op, w, T.FLD_H),
                                                            fld(op, w, T.FLD_L), dbl, neg != 0):
        return pc + 4
    y = element(V, sz, c, fld(op, w, T.FLD_H), fld(op, w, T.FLD_L))
    fpcr = R[FPCR]
    n = 1 if scalar else (4 if q else 2) >> (sz - 2)
    res = V.tmp
    for i in range(n):
        x = lane(V, b, sz, i)
        if mul:
            res[i] = fp_binop(kind, x, y, dbl, fpcr)
            R[FPSR] |= binop_bits_flags(kind, x, y, dbl)
        else:
            acc = lane(V, a, sz, i)
            res[i] = fp_fma(x ^ neg, y, acc, dbl, fpcr)
            R[FPSR] |= fma_bits_flags(x ^ neg, y, acc, dbl)
    if scalar:
        set_scalar(V, a, sz, res[0])
    else:
        write_lanes(V, a, sz, res, n, q)
    return pc + 4


@executes("SQDMULH_vi", "SQRDMULH_vi", "SQDMULH_si", "SQRDMULH_si")
def velem_sqdmulh(op, w, imm, pc, R, V, st, a, b, c, d):
    """Doubling multiply returning the high half, saturated (SQRDMULH: rounded)."""
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    esize = 8 << sz
    scalar = op == T.SQDMULH_si or op == T.SQRDMULH_si
    rnd = 1 if op == T.SQRDMULH_vi or op == T.SQRDMULH_si else 0
    y = sextn(element(V, sz, c, fld(op, w, T.FLD_H), fld(op, w, T.FLD_L)), esize)
    n = 1 if scalar else (16 if q else 8) >> sz
    res = V.tmp
    qc = False
    for i in range(n):
        r, f = doubling_mul_high(sextn(lane(V, b, sz, i), esize), y, esize, rnd)
        res[i] = r
        qc |= f
    if scalar:
        set_scalar(V, a, sz, res[0])
    else:
        write_lanes(V, a, sz, res, n, q)
    if qc:
        R[FPSR] |= QC
    return pc + 4


@executes("SQDMULL_vi", "SQDMLAL_vi", "SQDMLSL_vi", "SQDMULL_si", "SQDMLAL_si", "SQDMLSL_si")
def velem_sqdml(op, w, imm, pc, R, V, st, a, b, c, d):
    """Doubling multiply long, saturated, into Vd (SQDMLAL) or from it (SQDMLSL)."""
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    esize = 8 << sz
    scalar = op == T.SQDMULL_si or op == T.SQDMLAL_si or op == T.SQDMLSL_si
    acc = (1 if op == T.SQDMLAL_vi or op == T.SQDMLAL_si else
           -1 if op == T.SQDMLSL_vi or op == T.SQDMLSL_si else 0)
    y = sx(element(V, sz, c, fld(op, w, T.FLD_H), fld(op, w, T.FLD_L)), esize, True)
    n = 1 if scalar else 8 >> sz
    first = n if q and not scalar else 0
    res = V.tmp
    qc = False
    for i in range(n):
        x = sx(lane(V, b, sz, first + i), esize, True)
        r, f = doubling_mul_long(x, y, lane(V, a, sz + 1, i), 2 * esize, acc)
        res[i] = r
        qc |= f
    if scalar:
        set_scalar(V, a, sz + 1, res[0])
    else:
        write_lanes(V, a, sz + 1, res, n, 1)
    if qc:
        R[FPSR] |= QC
    return pc + 4
