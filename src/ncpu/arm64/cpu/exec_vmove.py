"""Advanced SIMD copies and modified immediates: the families of DUP, INS,
SMOV, UMOV (`DUP_ve` ... `INS_ve`) and MOVI, MVNI, ORR, BIC, FMOV (vector,
immediate) (`MOVI_v32` ... `FMOV_vd`).

The copies' lane size is imm5's lowest set bit and the index the bits above
it (each family: `sz = ...`); the table reserves every imm5 a form lacks, so no family
checks it.  Registers: a = Vd (Rd for SMOV/UMOV), b = Vn (Rn for DUP and INS
from a general register; 31 is then the zero register).  The modified
immediates arrive expanded (decode_table option imm=simd: the 64-bit
pattern of each half), so their families only copy, invert, OR or AND-NOT.
A 64-bit (Q = 0) result zeroes the upper half of Vd, as on hardware.  All
run out of line (gen_loop: cold rows): gcc hoists them out of its loops.
"""
import numpy as np

from . import decode_table as T
from .int_ops import sextn
from .decoder import fld
from .rows import executes
from .swar import lows
from .vregs import lane, set_lane


@executes("DUP_ve", "DUP_vg")
def vdup(op, w, imm, pc, R, V, st, a, b, c, d):
    """Every lane of Vd the element of Vn (DUP_ve) or the low lane bits of Rn (DUP_vg)."""
    q = fld(op, w, T.FLD_Q)
    imm5 = fld(op, w, T.FLD_IMM5)
    sz = 0 if imm5 & 1 else 1 if imm5 & 2 else 2 if imm5 & 4 else 3
    x = lane(V, b, sz, imm5 >> (sz + 1)) if op == T.DUP_ve else R[b]
    if sz < 3:
        x &= (np.int64(1) << (8 << sz)) - 1
    half = x * lows(sz)                         # the lane repeated over 64 bits
    V.d[a, 0] = half
    V.d[a, 1] = half if q else 0
    return pc + 4


@executes("INS_vg", "INS_ve")
def vins(op, w, imm, pc, R, V, st, a, b, c, d):
    """One lane of Vd from Rn (INS_vg) or from lane imm4 >> size of Vn (INS_ve); the rest kept."""
    imm5 = fld(op, w, T.FLD_IMM5)
    sz = 0 if imm5 & 1 else 1 if imm5 & 2 else 2 if imm5 & 4 else 3
    x = lane(V, b, sz, fld(op, w, T.FLD_IMM4) >> sz) if op == T.INS_ve else R[b]
    set_lane(V, a, sz, imm5 >> (sz + 1), x)
    return pc + 4


@executes("SMOV_w", "SMOV_x", "UMOV_w", "UMOV_x")
def vmov_to_general(op, w, imm, pc, R, V, st, a, b, c, d):
    """An element of Vn into Rd, sign-extended (SMOV) or zero-extended (UMOV); W forms
    zero the upper 32 bits."""
    imm5 = fld(op, w, T.FLD_IMM5)
    sz = 0 if imm5 & 1 else 1 if imm5 & 2 else 2 if imm5 & 4 else 3
    x = lane(V, b, sz, imm5 >> (sz + 1))
    if op == T.SMOV_w or op == T.SMOV_x:
        x = sextn(x, 8 << sz)
    if op == T.SMOV_w:
        x &= 0xFFFFFFFF
    R[a] = x
    return pc + 4


@executes("MOVI_v32", "MVNI_v32", "MOVI_v16", "MVNI_v16", "MOVI_msl", "MVNI_msl", "MOVI_v8", "MOVI_v64",
          "FMOV_vs", "FMOV_vd")
def vmovi(op, w, imm, pc, R, V, st, a, b, c, d):
    """Vd = the expanded immediate (MVNI: its complement); MOVI_v64 with Q = 0 is MOVI Dd."""
    q = fld(op, w, T.FLD_Q)
    x = ~imm if op == T.MVNI_v32 or op == T.MVNI_v16 or op == T.MVNI_msl else imm
    V.d[a, 0] = x
    V.d[a, 1] = x if q else 0
    return pc + 4


@executes("ORR_vi32", "BIC_vi32", "ORR_vi16", "BIC_vi16")
def vorr_bic_imm(op, w, imm, pc, R, V, st, a, b, c, d):
    """Vd |= the expanded immediate (ORR), Vd &= ~it (BIC)."""
    q = fld(op, w, T.FLD_Q)
    bic = op == T.BIC_vi32 or op == T.BIC_vi16
    lo = V.d[a, 0] & ~imm if bic else V.d[a, 0] | imm
    hi = V.d[a, 1] & ~imm if bic else V.d[a, 1] | imm
    V.d[a, 0] = lo
    V.d[a, 1] = hi if q else 0
    return pc + 4
