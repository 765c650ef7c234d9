"""Advanced SIMD three different: the executor families of its `*_v` rows.

Long forms (SADDL, SMULL, SMLAL, SABDL, PMULL, ...: lanes of 8 << size bits
in, twice as wide out), wide forms (SADDW, SSUBW: the first source is already
wide) and the narrow-high forms (ADDHN, RSUBHN, ...).  The "2" forms (Q = 1)
read the upper halves of the narrow sources or write the upper half of a
narrow result.  Registers: a = Vd, b = Vn, c = Vm; rows told apart by id.
"""
import numpy as np

from . import decode_table as T
from .int_ops import lsr
from .decoder import fld
from .exec_sat import QC
from .rows import executes
from .sat_lanes import doubling_mul_long, sx
from .state import FPSR
from .vregs import lane, set_lane, set_scalar, write_lanes, write_narrow

ADDL, ADDW, SUBL, SUBW, ABAL, ABDL, MLAL, MLSL, MULL = range(9)
# The lane operation and signedness (1: unsigned) of each long or wide row.
_LONG = {"SADDL_v": (ADDL, 0), "UADDL_v": (ADDL, 1), "SADDW_v": (ADDW, 0), "UADDW_v": (ADDW, 1),
         "SSUBL_v": (SUBL, 0), "USUBL_v": (SUBL, 1), "SSUBW_v": (SUBW, 0), "USUBW_v": (SUBW, 1),
         "SABAL_v": (ABAL, 0), "UABAL_v": (ABAL, 1), "SABDL_v": (ABDL, 0), "UABDL_v": (ABDL, 1),
         "SMLAL_v": (MLAL, 0), "UMLAL_v": (MLAL, 1), "SMLSL_v": (MLSL, 0), "UMLSL_v": (MLSL, 1),
         "SMULL_v": (MULL, 0), "UMULL_v": (MULL, 1)}
LONG_KIND = np.array([_LONG.get(e.name, (-1, 0))[0] for e in T.TABLE], np.int64)
LONG_U = np.array([_LONG.get(e.name, (-1, 0))[1] for e in T.TABLE], np.int64)


@executes(*_LONG)
def vdiff_long(op, w, imm, pc, R, V, st, a, b, c, d):
    """Lanes of at most 32 bits in: every sum, difference and product is exact in int64."""
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    kind = LONG_KIND[op]
    uns = LONG_U[op] == 1
    esize = 8 << sz
    cnt = 8 >> sz
    off = cnt if q else 0
    res = V.tmp
    for i in range(cnt):
        y = sx(lane(V, c, sz, off + i), esize, not uns)
        if kind == ADDW or kind == SUBW:
            x = sx(lane(V, b, sz + 1, i), 2 * esize, not uns)
        else:
            x = sx(lane(V, b, sz, off + i), esize, not uns)
        acc = lane(V, a, sz + 1, i)
        if kind == ADDL or kind == ADDW:
            r = x + y
        elif kind == SUBL or kind == SUBW:
            r = x - y
        elif kind == ABDL:
            r = abs(x - y)
        elif kind == ABAL:
            r = acc + abs(x - y)
        elif kind == MULL:
            r = x * y
        elif kind == MLAL:
            r = acc + x * y
        else:
            r = acc - x * y
        res[i] = r
    write_lanes(V, a, sz + 1, res, cnt, 1)
    return pc + 4


@executes("ADDHN_v", "RADDHN_v", "SUBHN_v", "RSUBHN_v")
def vdiff_narrow_high(op, w, imm, pc, R, V, st, a, b, c, d):
    """The high half of each wide sum or difference (rounded: R forms)."""
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    esize = 8 << sz
    rnd = np.int64(1) << (esize - 1) if op == T.RADDHN_v or op == T.RSUBHN_v else np.int64(0)
    res = V.tmp
    for i in range(8 >> sz):
        x, y = lane(V, b, sz + 1, i), lane(V, c, sz + 1, i)
        s = x + y if op == T.ADDHN_v or op == T.RADDHN_v else x - y
        res[i] = lsr(s + rnd, esize)
    write_narrow(V, a, sz, res, 8 >> sz, q)
    return pc + 4


@executes("SQDMLAL_v", "SQDMLSL_v", "SQDMULL_v", "SQDMLAL_s", "SQDMLSL_s", "SQDMULL_s")
def vdiff_sqdm(op, w, imm, pc, R, V, st, a, b, c, d):
    """Saturating doubling multiply long (and accumulate), vector or scalar (`_s`: one lane);
    a saturated lane sets FPSR.QC."""
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    esize = 8 << sz
    scalar = op == T.SQDMLAL_s or op == T.SQDMLSL_s or op == T.SQDMULL_s
    acc = 1 if op == T.SQDMLAL_v or op == T.SQDMLAL_s else (-1 if op == T.SQDMLSL_v or op == T.SQDMLSL_s else 0)
    cnt = 1 if scalar else 8 >> sz
    off = cnt if q else 0
    res = V.tmp
    qc = False
    for i in range(cnt):
        x = sx(lane(V, b, sz, off + i), esize, True)
        y = sx(lane(V, c, sz, off + i), esize, True)
        r, f = doubling_mul_long(x, y, lane(V, a, sz + 1, i), 2 * esize, acc)
        res[i] = r
        qc |= f
    if scalar:
        set_scalar(V, a, sz + 1, res[0])
    else:
        write_lanes(V, a, sz + 1, res, cnt, 1)
    if qc:
        R[FPSR] |= QC
    return pc + 4


@executes("PMULL_v")
def vdiff_pmull(op, w, imm, pc, R, V, st, a, b, c, d):
    """Polynomial multiply long: bytes to 16-bit lanes (size 0), or one 64-bit lane to 128 bits (size 3)."""
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    n = 1 if sz == 3 else 8
    res = V.tmp
    for i in range(n):
        x = V.d[b, q] if sz == 3 else lane(V, b, 0, 8 * q + i)
        y = V.d[c, q] if sz == 3 else lane(V, c, 0, 8 * q + i)
        lo = np.int64(0)                             # carry-less product, low and high 64 bits
        hi = np.int64(0)
        for k in range(64 if sz == 3 else 8):
            if (y >> k) & 1:
                lo ^= x << k
                if k:
                    hi ^= lsr(x, 64 - k)
        res[2 * i] = lo
        res[2 * i + 1] = hi
    if sz == 3:
        V.d[a, 0] = res[0]
        V.d[a, 1] = res[1]
    else:
        for i in range(8):
            set_lane(V, a, 1, i, res[2 * i])
    return pc + 4
