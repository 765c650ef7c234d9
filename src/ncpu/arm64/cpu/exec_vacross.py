"""Advanced SIMD across lanes, integer: ADDV, SADDLV, UADDLV, SMAXV, UMAXV, SMINV, UMINV.

One row per form (decode_table); the family reads Q and size by name and
tells its rows apart by id.  The result is a scalar in the low lane of Vd
(the rest zeroed); SADDLV/UADDLV's is twice as wide as a lane.  The FP
forms (FMAXV, ...) are in exec_vfparith.  Registers: a = Vd, b = Vn.
"""

from . import decode_table as T
from .int_ops import sextn, ult
from .decoder import fld
from .rows import executes
from .vregs import lane, set_scalar


@executes("ADDV_v", "SADDLV_v", "UADDLV_v", "SMAXV_v", "UMAXV_v", "SMINV_v", "UMINV_v")
def vacross(op, w, imm, pc, R, V, st, a, b, c, d):
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)                      # 8 to 32 bits (x= rules out 64)
    esize = 8 << sz
    n = (16 if q else 8) >> sz
    acc = lane(V, b, sz, 0)
    if op == T.SADDLV_v:
        acc = sextn(acc, esize)
    for i in range(1, n):
        x = lane(V, b, sz, i)
        if op == T.ADDV_v or op == T.UADDLV_v:
            acc += x
        elif op == T.SADDLV_v:
            acc += sextn(x, esize)
        elif op == T.SMAXV_v:
            acc = x if sextn(x, esize) > sextn(acc, esize) else acc
        elif op == T.SMINV_v:
            acc = x if sextn(x, esize) < sextn(acc, esize) else acc
        elif op == T.UMAXV_v:
            acc = x if ult(acc, x) else acc
        else:
            acc = x if ult(x, acc) else acc
    wide = op == T.SADDLV_v or op == T.UADDLV_v
    set_scalar(V, a, sz + 1 if wide else sz, acc)
    return pc + 4
