"""ARMv8.1 RDM: SQRDMLAH / SQRDMLSH (signed saturating rounding doubling
multiply accumulate / subtract, returning the high half), vector, scalar
and by element: the family of the `SQRDMLAH_*` / `SQRDMLSH_*` rows.

Each lane of 16 or 32 bits: Vd + (+-2 * n * m + 2^(esize-1)) >> esize,
saturated (FPSR.QC) -- the whole sum taken before the shift, so the
accumulator is not rounded apart.  With acc * 2^esize's low bits all zero
this is acc + ((+-n * m + 2^(esize-2)) >> (esize-1)), which fits int64 even
for the minimum times itself.  The element operand of the by-element forms
is read as exec_velem reads it.  Registers: a = Vd, b = Vn, c = Vm (M:Rm).
"""
import numpy as np

from . import decode_table as T
from .int_ops import sextn
from .decoder import fld
from .exec_sat import QC
from .exec_velem import element
from .rows import executes
from .state import FPSR
from .vregs import lane, set_scalar, write_lanes


@executes("SQRDMLAH_v", "SQRDMLSH_v", "SQRDMLAH_s", "SQRDMLSH_s",
          "SQRDMLAH_vi", "SQRDMLSH_vi", "SQRDMLAH_si", "SQRDMLSH_si")
def vrdm(op, w, imm, pc, R, V, st, a, b, c, d):
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    esize = 8 << sz
    scalar = op == T.SQRDMLAH_s or op == T.SQRDMLSH_s or op == T.SQRDMLAH_si or op == T.SQRDMLSH_si
    by_elem = op == T.SQRDMLAH_vi or op == T.SQRDMLSH_vi or op == T.SQRDMLAH_si or op == T.SQRDMLSH_si
    sub = op == T.SQRDMLSH_v or op == T.SQRDMLSH_s or op == T.SQRDMLSH_vi or op == T.SQRDMLSH_si
    y = sextn(element(V, sz, c, fld(op, w, T.FLD_H), fld(op, w, T.FLD_L)), esize) if by_elem else np.int64(0)
    n = 1 if scalar else (16 if q else 8) >> sz
    hi = (np.int64(1) << (esize - 1)) - 1
    lo = -hi - 1
    res = V.tmp
    qc = False
    for i in range(n):
        x = sextn(lane(V, b, sz, i), esize)
        m = y if by_elem else sextn(lane(V, c, sz, i), esize)
        p = -(x * m) if sub else x * m
        r = sextn(lane(V, a, sz, i), esize) + ((p + (np.int64(1) << (esize - 2))) >> (esize - 1))
        if r > hi:
            r, qc = hi, True
        elif r < lo:
            r, qc = lo, True
        res[i] = r
    if scalar:
        set_scalar(V, a, sz, res[0])
    else:
        write_lanes(V, a, sz, res, n, q)
    if qc:
        R[FPSR] |= QC
    return pc + 4
