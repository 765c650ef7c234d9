"""Advanced SIMD two-register miscellaneous, integer: the families of its `*_v` rows.

Element-wise lane operations (ABS, CLZ, CMEQ #0, ...), byte reversals of
containers (REV16/32/64), pairwise long additions (SADDLP, UADALP, ...),
the saturating ones (SQABS, SUQADD, ...: a saturated lane sets FPSR.QC),
narrowing (XTN, SQXTN, ...: the "2" forms write the upper half) and SHLL.
Registers: a = Vd, b = Vn; rows told apart by id, Q and size read by name.
"""
import numpy as np

from . import decode_table as T
from .int_ops import sextn
from .decoder import fld
from .exec_sat import QABSNEG, QACC, QC, misc_lane, narrow
from .rows import executes
from .swar import lanes_eq_zero, lanes_sub, tops
from .state import FPSR
from .vregs import lane, write_lanes


@executes("NEG_v", "NOT_v", "CMEQ0_v", hot=True)
def vmisc_swar(op, w, imm, pc, R, V, st, a, b, c, d):
    """The two-register rows of vectorised loops, a 64-bit half at a time (swar.py); the loop carries them inline."""
    q = fld(op, w, T.FLD_Q)
    sz = 0 if op == T.NOT_v else fld(op, w, T.FLD_SIZE)
    h = tops(sz)
    x0, x1 = V.d[b, 0], V.d[b, 1]
    if op == T.NEG_v:
        r0, r1 = lanes_sub(np.int64(0), x0, h), lanes_sub(np.int64(0), x1, h)
    elif op == T.NOT_v:
        r0, r1 = ~x0, ~x1
    else:                                            # CMEQ #0
        r0, r1 = lanes_eq_zero(x0, h, sz), lanes_eq_zero(x1, h, sz)
    V.d[a, 0] = r0
    V.d[a, 1] = r1 if q else 0
    return pc + 4


@executes("ABS_v", "CMGT0_v", "CMGE0_v", "CMLE0_v", "CMLT0_v", "CLZ_v", "CLS_v", "CNT_v", "RBIT_v")
def vmisc_lanes(op, w, imm, pc, R, V, st, a, b, c, d):
    # One function, no lane helpers: numba compiles each function apart, so fewer is a faster cold start.
    q = fld(op, w, T.FLD_Q)
    # CNT and RBIT work on bytes (their size field is part of the op)
    sz = 0 if op == T.CNT_v or op == T.RBIT_v else fld(op, w, T.FLD_SIZE)
    esize = 8 << sz
    m = np.int64(-1) if sz == 3 else (np.int64(1) << esize) - 1
    n = (16 if q else 8) >> sz
    res = V.tmp
    for i in range(n):
        x = lane(V, b, sz, i)
        s = x if sz == 3 else sextn(x, esize)
        if op == T.ABS_v:
            r = -s if s < 0 else s
        elif op == T.CMGT0_v:
            r = m if s > 0 else 0
        elif op == T.CMGE0_v:
            r = m if s >= 0 else 0
        elif op == T.CMLE0_v:
            r = m if s <= 0 else 0
        elif op == T.CMLT0_v:
            r = m if s < 0 else 0
        elif op == T.CNT_v or op == T.CLZ_v or op == T.CLS_v:   # lanes of at most 32 bits
            # CLS: leading bits equal to the sign (sign excluded) = leading zeros of
            # x ^ (x >> 1) over esize - 1 bits
            y = (x ^ (x >> 1)) & (m >> 1) if op == T.CLS_v else x
            ones = 0
            width = 0
            while y:
                ones += y & 1
                width += 1
                y >>= 1
            r = ones if op == T.CNT_v else esize - width - (1 if op == T.CLS_v else 0)
        else:                                            # RBIT of a byte
            r = 0
            for k in range(8):
                r |= ((x >> k) & 1) << (7 - k)
        res[i] = r
    write_lanes(V, a, sz, res, n, q)
    return pc + 4


@executes("REV64_v", "REV32_v", "REV16_v")
def vmisc_rev(op, w, imm, pc, R, V, st, a, b, c, d):
    """Reverse the lanes inside each container of 8, 4 or 2 bytes."""
    q = fld(op, w, T.FLD_Q)
    sz = 0 if op == T.REV16_v else fld(op, w, T.FLD_SIZE)
    cont = 8 if op == T.REV64_v else 4 if op == T.REV32_v else 2
    per = cont >> sz                                 # lanes per container
    n = (16 if q else 8) >> sz
    res = V.tmp
    for i in range(n):
        base = (i // per) * per
        res[i] = lane(V, b, sz, base + per - 1 - (i - base))
    write_lanes(V, a, sz, res, n, q)
    return pc + 4


@executes("SADDLP_v", "UADDLP_v", "SADALP_v", "UADALP_v")
def vmisc_pairwise_long(op, w, imm, pc, R, V, st, a, b, c, d):
    """Sum of each pair of adjacent lanes into a lane twice as wide (added to Vd: SADALP, UADALP)."""
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    esize = 8 << sz
    signed = op == T.SADDLP_v or op == T.SADALP_v
    acc = op == T.SADALP_v or op == T.UADALP_v
    n = (8 if q else 4) >> sz
    res = V.tmp
    for i in range(n):
        x, y = lane(V, b, sz, 2 * i), lane(V, b, sz, 2 * i + 1)
        if signed:
            x, y = sextn(x, esize), sextn(y, esize)
        res[i] = x + y + (lane(V, a, sz + 1, i) if acc else 0)
    write_lanes(V, a, sz + 1, res, n, q)
    return pc + 4


@executes("SUQADD_v", "USQADD_v", "SQABS_v", "SQNEG_v")
def vmisc_saturating(op, w, imm, pc, R, V, st, a, b, c, d):
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    kind = QACC if op == T.SUQADD_v or op == T.USQADD_v else QABSNEG
    u = 1 if op == T.USQADD_v or op == T.SQNEG_v else 0
    n = (16 if q else 8) >> sz
    res = V.tmp
    qc = False
    for i in range(n):
        r, f = misc_lane(kind, u, lane(V, b, sz, i), lane(V, a, sz, i), 8 << sz)
        res[i] = r
        qc |= f
    write_lanes(V, a, sz, res, n, q)
    if qc:
        R[FPSR] |= QC
    return pc + 4


@executes("XTN_v", "SQXTN_v", "UQXTN_v", "SQXTUN_v")
def vmisc_narrow(op, w, imm, pc, R, V, st, a, b, c, d):
    """Lanes of Vn truncated (XTN) or saturated to half their width."""
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    in_signed = op != T.UQXTN_v and op != T.XTN_v
    out_signed = op == T.SQXTN_v
    qc = narrow(V, a, b, sz, q, False, 0, False, in_signed, out_signed, op != T.XTN_v)
    if qc:
        R[FPSR] |= QC
    return pc + 4


@executes("SHLL_v")
def vmisc_shll(op, w, imm, pc, R, V, st, a, b, c, d):
    """Each lane (of the upper half: SHLL2) widened and shifted left by its width."""
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    cnt = 8 >> sz
    off = cnt if q else 0
    res = V.tmp
    for i in range(cnt):
        res[i] = lane(V, b, sz, off + i) << (8 << sz)
    write_lanes(V, a, sz + 1, res, cnt, 1)
    return pc + 4
