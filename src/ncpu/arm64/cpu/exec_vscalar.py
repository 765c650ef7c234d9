"""Advanced SIMD scalar integer forms, one row per form (`add d0, d1, d2`,
`addp d0, v1.2d`, `cmeq d0, d1, #0`, `sqadd b0, b1, b2`, `sqxtn s0, d1`, `mov h0, v1.h[5]`):
the families of their `*_s` rows.

The plain forms work on 64-bit lanes only (their size field is 11 in the
row's pattern); the saturating ones on every lane size, with the lane
arithmetic of exec_sat (three_lane, misc_lane, narrow), as their vector
rows use it.  The result is one lane, the rest of Vd zeroed.  Registers:
a = Vd, b = Vn, c = Vm.
"""
import numpy as np

from . import decode_table as T
from .int_ops import lsr, sextn, ult
from .decoder import fld
from .exec_sat import QABSNEG, QACC, QC, misc_lane, narrow, three_lane
from .exec_vec3 import SAT_KIND, SAT_U
from .rows import executes
from .state import FPSR
from .vregs import lane, set_scalar


@executes("ADD_s", "SUB_s", "ADDP_s", "CMTST_s", "CMEQ_s", "CMGT_s", "CMHI_s", "CMGE_s", "CMHS_s", "SSHL_s", "USHL_s",
          "CMGT0_s", "CMGE0_s", "CMEQ0_s", "CMLE0_s", "CMLT0_s", "ABS_s", "NEG_s")
def scalar_int(op, w, imm, pc, R, V, st, a, b, c, d):
    x = V.d[b, 0]
    y = V.d[c, 0]                                       # (the two-register rows: unused)
    if op == T.ADD_s:
        r = x + y
    elif op == T.SUB_s:
        r = x - y
    elif op == T.ADDP_s:                                  # the two lanes of Vn.2d
        r = x + V.d[b, 1]
    elif op == T.SSHL_s or op == T.USHL_s:              # by the signed low byte of y
        s = sextn(y & 0xFF, 8)
        if s >= 0:
            r = 0 if s >= 64 else x << s
        elif op == T.USHL_s:
            r = 0 if -s >= 64 else lsr(x, -s)
        else:
            r = x >> min(-s, 63)
    elif op == T.ABS_s:
        r = -x if x < 0 else x
    elif op == T.NEG_s:
        r = -x
    else:                                                 # compares: all ones or zero
        if op == T.CMTST_s:
            t = (x & y) != 0
        elif op == T.CMEQ_s:
            t = x == y
        elif op == T.CMGT_s:
            t = x > y
        elif op == T.CMGE_s:
            t = x >= y
        elif op == T.CMHI_s:
            t = ult(y, x)
        elif op == T.CMHS_s:
            t = not ult(x, y)
        elif op == T.CMGT0_s:
            t = x > 0
        elif op == T.CMGE0_s:
            t = x >= 0
        elif op == T.CMEQ0_s:
            t = x == 0
        elif op == T.CMLE0_s:
            t = x <= 0
        else:                                             # CMLT #0
            t = x < 0
        r = np.int64(-1) if t else np.int64(0)
    set_scalar(V, a, 3, r)
    return pc + 4


# The lane kind (exec_sat.three_lane) of each saturating scalar row: its vector row's.
_SAT3 = ("SQADD_s", "UQADD_s", "SQSUB_s", "UQSUB_s", "SQSHL_s", "UQSHL_s", "SRSHL_s", "URSHL_s",
         "SQRSHL_s", "UQRSHL_s", "SQDMULH_s", "SQRDMULH_s")
KIND3 = np.array([SAT_KIND[T.BY_NAME_ID[e.name[:-2] + "_v"]] if e.name in _SAT3 else -1 for e in T.TABLE], np.int64)
U3 = np.array([SAT_U[T.BY_NAME_ID[e.name[:-2] + "_v"]] if e.name in _SAT3 else 0 for e in T.TABLE], np.int64)


@executes("SQADD_s", "UQADD_s", "SQSUB_s", "UQSUB_s", "SQSHL_s", "UQSHL_s", "SRSHL_s", "URSHL_s",
          "SQRSHL_s", "UQRSHL_s", "SQDMULH_s", "SQRDMULH_s")
def scalar_saturating3(op, w, imm, pc, R, V, st, a, b, c, d):
    """One lane of the vector row's kind; a saturated lane sets FPSR.QC."""
    sz = 3 if op == T.SRSHL_s or op == T.URSHL_s else fld(op, w, T.FLD_SIZE)   # those two: 64-bit rows
    r, f = three_lane(KIND3[op], U3[op], lane(V, b, sz, 0), lane(V, c, sz, 0), 8 << sz)
    set_scalar(V, a, sz, r)
    if f:
        R[FPSR] |= QC
    return pc + 4


@executes("SUQADD_s", "USQADD_s", "SQABS_s", "SQNEG_s")
def scalar_saturating2(op, w, imm, pc, R, V, st, a, b, c, d):
    sz = fld(op, w, T.FLD_SIZE)
    kind = QACC if op == T.SUQADD_s or op == T.USQADD_s else QABSNEG
    u = 1 if op == T.USQADD_s or op == T.SQNEG_s else 0
    r, f = misc_lane(kind, u, lane(V, b, sz, 0), lane(V, a, sz, 0), 8 << sz)
    set_scalar(V, a, sz, r)
    if f:
        R[FPSR] |= QC
    return pc + 4


@executes("SQXTN_s", "UQXTN_s", "SQXTUN_s")
def scalar_narrow(op, w, imm, pc, R, V, st, a, b, c, d):
    """The lane of Vn saturated to half its width."""
    sz = fld(op, w, T.FLD_SIZE)
    if narrow(V, a, b, sz, 0, True, 0, False, op != T.UQXTN_s, op == T.SQXTN_s, True):
        R[FPSR] |= QC
    return pc + 4


@executes("DUP_s")
def dup_scalar(op, w, imm, pc, R, V, st, a, b, c, d):
    """DUP (element, scalar), spelled MOV: lane imm5 >> (size + 1) of Vn, the size
    being the lowest set bit of imm5."""
    imm5 = fld(op, w, T.FLD_IMM5)
    sz = 0 if imm5 & 1 else 1 if imm5 & 2 else 2 if imm5 & 4 else 3
    set_scalar(V, a, sz, lane(V, b, sz, imm5 >> (sz + 1)))
    return pc + 4
