"""Advanced SIMD reciprocal estimates and steps, and FCVTXN: the families of
`FRECPE_*`, `FRSQRTE_*`, `FRECPX_s`, `URECPE_v`, `URSQRTE_v`, `FRECPS_*`,
`FRSQRTS_*` and `FCVTXN_*`, vector and scalar.

The lane arithmetic is fpu_estimate.py's (each function returns the result
and its FPSR flags); the families pick lanes by sz and Q (read by name) and
collect them into a buffer written at the end (Vd may be a source).
Registers: a = Vd, b = Vn, c = Vm.  All run out of line (gen_loop: cold rows).
"""
import numpy as np

from . import decode_table as T
from .decoder import fld
from .fpu_estimate import fcvtxn, frecpe, frecps, frecpx, frsqrte, frsqrts, urecpe, ursqrte
from .rows import executes
from .state import FPCR, FPSR
from .vregs import lane, set_lane, set_scalar, write_lanes


@executes("FRECPE_v", "FRSQRTE_v", "URECPE_v", "URSQRTE_v", "FRECPE_s", "FRSQRTE_s", "FRECPX_s")
def vestimate(op, w, imm, pc, R, V, st, a, b, c, d):
    """One estimate per lane (the scalar forms: the low lane, the rest of Vd zeroed)."""
    scalar = op == T.FRECPE_s or op == T.FRSQRTE_s or op == T.FRECPX_s
    q = 0 if scalar else fld(op, w, T.FLD_Q)
    sz = 2 + fld(op, w, T.FLD_SZ)
    dbl = sz == 3
    fpcr = R[FPCR]
    n = 1 if scalar else (4 if q else 2) >> (sz - 2)
    res = V.tmp
    flags = 0
    for i in range(n):
        x = lane(V, b, sz, i)
        fl = 0
        if op == T.FRECPE_v or op == T.FRECPE_s:
            r, fl = frecpe(x, dbl, fpcr)
        elif op == T.FRSQRTE_v or op == T.FRSQRTE_s:
            r, fl = frsqrte(x, dbl, fpcr)
        elif op == T.FRECPX_s:
            r, fl = frecpx(x, dbl, fpcr)
        elif op == T.URECPE_v:
            r = urecpe(x)
        else:
            r = ursqrte(x)
        res[i] = r
        flags |= fl
    if scalar:
        set_scalar(V, a, sz, res[0])
    else:
        write_lanes(V, a, sz, res, n, q)
    R[FPSR] |= flags
    return pc + 4


@executes("FRECPS_v", "FRSQRTS_v", "FRECPS_s", "FRSQRTS_s")
def vstep(op, w, imm, pc, R, V, st, a, b, c, d):
    """The Newton-Raphson steps, lane by lane: 2 - n*m (FRECPS), (3 - n*m) / 2 (FRSQRTS)."""
    scalar = op == T.FRECPS_s or op == T.FRSQRTS_s
    q = 0 if scalar else fld(op, w, T.FLD_Q)
    sz = 2 + fld(op, w, T.FLD_SZ)
    dbl = sz == 3
    fpcr = R[FPCR]
    n = 1 if scalar else (4 if q else 2) >> (sz - 2)
    res = V.tmp
    flags = 0
    for i in range(n):
        x, y = lane(V, b, sz, i), lane(V, c, sz, i)
        if op == T.FRECPS_v or op == T.FRECPS_s:
            r, fl = frecps(x, y, dbl, fpcr)
        else:
            r, fl = frsqrts(x, y, dbl, fpcr)
        res[i] = r
        flags |= fl
    if scalar:
        set_scalar(V, a, sz, res[0])
    else:
        write_lanes(V, a, sz, res, n, q)
    R[FPSR] |= flags
    return pc + 4


@executes("FCVTXN_v", "FCVTXN_s")
def vcvtxn(op, w, imm, pc, R, V, st, a, b, c, d):
    """Double lanes to single rounding to odd: FCVTXN into the low half (upper zeroed),
    FCVTXN2 into the upper half (low kept), the scalar form into s of Vd."""
    fpcr = R[FPCR]
    if op == T.FCVTXN_s:
        r, fl = fcvtxn(lane(V, b, 3, 0), fpcr)
        set_scalar(V, a, 2, r)
        R[FPSR] |= fl
        return pc + 4
    q = fld(op, w, T.FLD_Q)
    r0, f0 = fcvtxn(lane(V, b, 3, 0), fpcr)
    r1, f1 = fcvtxn(lane(V, b, 3, 1), fpcr)
    set_lane(V, a, 2, 2 * q, r0)
    set_lane(V, a, 2, 2 * q + 1, r1)
    if not q:
        V.d[a, 1] = 0
    R[FPSR] |= f0 | f1
    return pc + 4
