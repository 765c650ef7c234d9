"""Advanced SIMD three same, integer: the executor families of the `*_v` rows.

One row per instruction form in decode_table (ADD_v, CMEQ_v, SQADD_v, ...);
the families below tell their rows apart by row id, never by opcode bits,
and read Q and size by name (decoder.fld).  Register operands arrive
resolved: a = Vd, b = Vn, c = Vm (decode_table: register operands).  Lanes
are collected into a buffer and written at the end, so a destination that
is also a source reads its old value; a 64-bit (Q = 0) result zeroes the
upper half, as on hardware.  These rows run out of line (gen_loop: cold
rows), so they cost the hot loop's compile nothing, except the rows of the
families marked hot (ADD, SUB, CMEQ and the bitwise ones, common in gcc's
vectorised loops): the loop carries those inline, as whole-word SWAR code.
"""
import numpy as np

from . import decode_table as T
from .int_ops import lsr, sextn, ult
from .decoder import fld
from .exec_sat import DMULH, HADD, HSUB, QADD, QRSHL, QSHL, QSUB, QC, RHADD, RSHL, three_lane
from .rows import executes
from .swar import lanes_add, lanes_eq_zero, lanes_sub, tops
from .state import FPSR
from .vregs import lane, write_lanes


@executes("MUL_v", "MLA_v", "MLS_v", "PMUL_v", "CMTST_v", "CMGT_v", "CMGE_v",
          "CMHI_v", "CMHS_v", "SMAX_v", "SMIN_v", "UMAX_v", "UMIN_v", "SABD_v", "UABD_v", "SABA_v", "UABA_v",
          "SSHL_v", "USHL_v")
def vec3_elementwise(op, w, imm, pc, R, V, st, a, b, c, d):
    # One function, no lane helpers: numba compiles each function apart, so fewer is a faster cold start.
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    esize = 8 << sz
    m = np.int64(-1) if sz == 3 else (np.int64(1) << esize) - 1
    n = (16 if q else 8) >> sz
    res = V.tmp
    for i in range(n):
        x, y, acc = lane(V, b, sz, i), lane(V, c, sz, i), lane(V, a, sz, i)
        sx_, sy = (x, y) if sz == 3 else (sextn(x, esize), sextn(y, esize))   # signed views
        ugt = ult(y, x)                                                       # unsigned x > y
        if op == T.MUL_v:
            r = x * y
        elif op == T.MLA_v:
            r = acc + x * y
        elif op == T.MLS_v:
            r = acc - x * y
        elif op == T.PMUL_v:                             # polynomial (carry-less) product of bytes
            r = np.int64(0)
            for k in range(8):
                if (y >> k) & 1:
                    r ^= x << k
        elif op == T.CMTST_v:
            r = m if (x & y) != 0 else 0
        elif op == T.CMGT_v:
            r = m if sx_ > sy else 0
        elif op == T.CMGE_v:
            r = m if sx_ >= sy else 0
        elif op == T.CMHI_v:
            r = m if ugt else 0
        elif op == T.CMHS_v:
            r = m if x == y or ugt else 0
        elif op == T.SMAX_v:
            r = x if sx_ > sy else y
        elif op == T.SMIN_v:
            r = x if sx_ < sy else y
        elif op == T.UMAX_v:
            r = x if ugt else y
        elif op == T.UMIN_v:
            r = y if ugt else x
        elif op == T.SABD_v or op == T.SABA_v:           # lanes of at most 32 bits: exact in int64
            r = abs(sx_ - sy) + (acc if op == T.SABA_v else 0)
        elif op == T.UABD_v or op == T.UABA_v:
            r = abs(x - y) + (acc if op == T.UABA_v else 0)
        else:                                            # SSHL / USHL: by the signed low byte of y
            s = sextn(y & 0xFF, 8)
            if s >= 0:
                r = 0 if s >= esize else x << s
            elif op == T.USHL_v:
                r = 0 if -s >= esize else lsr(x, -s)
            else:
                r = sx_ >> min(-s, esize - 1)
        res[i] = r
    write_lanes(V, a, sz, res, n, q)
    return pc + 4


@executes("ADDP_v", "SMAXP_v", "UMAXP_v", "SMINP_v", "UMINP_v")
def vec3_pairwise(op, w, imm, pc, R, V, st, a, b, c, d):
    """Pairs of adjacent lanes of Vm:Vn (Vn's pairs first)."""
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    esize = 8 << sz
    n = (16 if q else 8) >> sz
    res = V.tmp
    for i in range(n):
        src = b if 2 * i < n else c
        j = (2 * i) % n
        x, y = lane(V, src, sz, j), lane(V, src, sz, j + 1)
        sgt = (x > y) if sz == 3 else sextn(x, esize) > sextn(y, esize)
        if op == T.ADDP_v:
            r = x + y
        elif op == T.SMAXP_v:
            r = x if sgt else y
        elif op == T.SMINP_v:
            r = y if sgt else x
        elif op == T.UMAXP_v:
            r = x if ult(y, x) else y
        else:
            r = y if ult(y, x) else x
        res[i] = r
    write_lanes(V, a, sz, res, n, q)
    return pc + 4


# The lane kind (exec_sat.three_lane) and signedness of each saturating/halving row.
_SAT = {"SHADD_v": (HADD, 0), "UHADD_v": (HADD, 1), "SRHADD_v": (RHADD, 0), "URHADD_v": (RHADD, 1),
        "SHSUB_v": (HSUB, 0), "UHSUB_v": (HSUB, 1), "SQADD_v": (QADD, 0), "UQADD_v": (QADD, 1),
        "SQSUB_v": (QSUB, 0), "UQSUB_v": (QSUB, 1), "SQSHL_v": (QSHL, 0), "UQSHL_v": (QSHL, 1),
        "SRSHL_v": (RSHL, 0), "URSHL_v": (RSHL, 1), "SQRSHL_v": (QRSHL, 0), "UQRSHL_v": (QRSHL, 1),
        "SQDMULH_v": (DMULH, 0), "SQRDMULH_v": (DMULH, 1)}
SAT_KIND = np.array([_SAT.get(e.name, (-1, 0))[0] for e in T.TABLE], np.int64)
SAT_U = np.array([_SAT.get(e.name, (-1, 0))[1] for e in T.TABLE], np.int64)


@executes(*_SAT)
def vec3_saturating(op, w, imm, pc, R, V, st, a, b, c, d):
    """A lane that saturates sets FPSR.QC."""
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    n = (16 if q else 8) >> sz
    res = V.tmp
    qc = False
    for i in range(n):
        r, f = three_lane(SAT_KIND[op], SAT_U[op], lane(V, b, sz, i), lane(V, c, sz, i), 8 << sz)
        res[i] = r
        qc |= f
    write_lanes(V, a, sz, res, n, q)
    if qc:
        R[FPSR] |= QC
    return pc + 4


@executes("ADD_v", "SUB_v", "CMEQ_v", hot=True)
def vec3_swar(op, w, imm, pc, R, V, st, a, b, c, d):
    """The hot lane arithmetic of vectorised loops, a 64-bit half at a time (swar.py)."""
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    h = tops(sz)
    x0, x1, y0, y1 = V.d[b, 0], V.d[b, 1], V.d[c, 0], V.d[c, 1]
    if op == T.ADD_v:
        r0, r1 = lanes_add(x0, y0, h), lanes_add(x1, y1, h)
    elif op == T.SUB_v:
        r0, r1 = lanes_sub(x0, y0, h), lanes_sub(x1, y1, h)
    else:                                            # CMEQ
        r0, r1 = lanes_eq_zero(x0 ^ y0, h, sz), lanes_eq_zero(x1 ^ y1, h, sz)
    V.d[a, 0] = r0
    V.d[a, 1] = r1 if q else 0
    return pc + 4


@executes("AND_v", "BIC_v", "ORR_v", "ORN_v", "EOR_v", "BSL_v", "BIT_v", "BIF_v", hot=True)
def vec3_bitwise(op, w, imm, pc, R, V, st, a, b, c, d):
    q = fld(op, w, T.FLD_Q)
    for h in range(2 if q else 1):
        x, y, old = V.d[b, h], V.d[c, h], V.d[a, h]
        if op == T.AND_v:
            r = x & y
        elif op == T.BIC_v:
            r = x & ~y
        elif op == T.ORR_v:
            r = x | y
        elif op == T.ORN_v:
            r = x | ~y
        elif op == T.EOR_v:
            r = x ^ y
        elif op == T.BSL_v:
            r = (old & x) | (~old & y)
        elif op == T.BIT_v:
            r = (old & ~y) | (x & y)
        else:                                        # BIF
            r = (old & y) | (x & ~y)
        V.d[a, h] = r
    if not q:
        V.d[a, 1] = 0
    return pc + 4
