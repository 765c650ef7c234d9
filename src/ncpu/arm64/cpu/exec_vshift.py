"""Advanced SIMD shift by immediate, vector and scalar: the families of its rows.

One row per instruction form in decode_table (SHL_v, USHR_v, SQSHRN_v,
SSHLL_v, SCVTF_vfix, SSHR_s, ...).  The decoder pre-computes each row's
declared immediate (option imm=): `imm & 0xFF` is the shift (or the number
of fraction bits), `imm >> 8` the lane size log2, both from immh:immb, so no
family reads those fields.  Registers: a = Vd, b = Vn.  A scalar row has no
Q field: fld reads 0 there, and it writes one lane and zeroes the rest.

The plain shifts (SHL, SSHR, USHR, SSRA, USRA, SRI, SLI), the long ones
(SSHLL/USHLL, which SXTL/UXTL are) and SHRN are whole-word SWAR code
(swar.py); the common vector ones run inline in the hot loop (hot=), the
rest out of line.
The rounding, saturating, narrowing and fixed-point rows go lane by lane
with the exact lane arithmetic of sat_lanes.py / exec_sat.narrow / fpu.py.
"""
import numpy as np

from . import decode_table as T
from .decoder import fld
from .exec_sat import QC, narrow
from .fpu import fixed_flags, fixed_to_fp, fp_to_fixed
from .rows import executes
from .sat_lanes import rshr, sat, shl_wide, sx
from .state import FPSR
from .swar import lane_ones, lanes_add, lanes_asr, lanes_even, lanes_lsr, lanes_shl, lanes_sub, lanes_widen, lows, tops
from .vregs import lane, set_scalar, write_lanes


@executes("SHL_v", "SSHR_v", "USHR_v", "SSRA_v", "USRA_v", "SRI_v", "SLI_v",
          "SHL_s", "SSHR_s", "USHR_s", "SSRA_s", "USRA_s", "SRI_s", "SLI_s",
          hot=("SHL_v", "SSHR_v", "USHR_v", "SSRA_v", "USRA_v"))
def vshift_swar(op, w, imm, pc, R, V, st, a, b, c, d):
    """A 64-bit half at a time; the scalar rows (64-bit lanes) are the Q = 0 case."""
    q = fld(op, w, T.FLD_Q)
    sz = imm >> 8
    sh = imm & 0xFF
    x0, x1, old0, old1 = V.d[b, 0], V.d[b, 1], V.d[a, 0], V.d[a, 1]
    if op == T.SHL_v or op == T.SHL_s:
        r0, r1 = lanes_shl(x0, sh, sz), lanes_shl(x1, sh, sz)
    elif op == T.USHR_v or op == T.USHR_s:
        r0, r1 = lanes_lsr(x0, sh, sz), lanes_lsr(x1, sh, sz)
    elif op == T.SSHR_v or op == T.SSHR_s:
        r0, r1 = lanes_asr(x0, sh, sz), lanes_asr(x1, sh, sz)
    elif op == T.USRA_v or op == T.USRA_s:
        h = tops(sz)
        r0, r1 = lanes_add(old0, lanes_lsr(x0, sh, sz), h), lanes_add(old1, lanes_lsr(x1, sh, sz), h)
    elif op == T.SSRA_v or op == T.SSRA_s:
        h = tops(sz)
        r0, r1 = lanes_add(old0, lanes_asr(x0, sh, sz), h), lanes_add(old1, lanes_asr(x1, sh, sz), h)
    elif op == T.SLI_v or op == T.SLI_s:             # insert: Vd keeps the bits below the shift
        keep = ~(lows(sz) * ((lane_ones(sz) << sh) & lane_ones(sz)))
        r0, r1 = lanes_shl(x0, sh, sz) | (old0 & keep), lanes_shl(x1, sh, sz) | (old1 & keep)
    else:                                            # SRI: Vd keeps the bits above (all of them for #esize)
        keep = ~(lows(sz) * lanes_lsr(lane_ones(sz), sh, sz))
        r0, r1 = lanes_lsr(x0, sh, sz) | (old0 & keep), lanes_lsr(x1, sh, sz) | (old1 & keep)
    V.d[a, 0] = r0
    V.d[a, 1] = r1 if q else 0
    return pc + 4


@executes("SSHLL_v", "USHLL_v", hot=True)
def vshift_long(op, w, imm, pc, R, V, st, a, b, c, d):
    """Lanes of one half of Vn (the upper one: SSHLL2/USHLL2) widened and shifted left
    (sh < the narrow width, so nothing crosses a wide lane); SSHLL then sign-extends
    each wide lane from the narrow lane's shifted sign bit s by (v ^ s) - s."""
    q = fld(op, w, T.FLD_Q)
    sz = imm >> 8
    sh = imm & 0xFF
    x = V.d[b, 1] if q else V.d[b, 0]
    r0 = lanes_widen(x, sz) << sh
    r1 = lanes_widen(x >> 32, sz) << sh
    if op == T.SSHLL_v:
        s = lows(sz + 1) * (np.int64(1) << ((8 << sz) - 1 + sh))
        h = tops(sz + 1)
        r0, r1 = lanes_sub(r0 ^ s, s, h), lanes_sub(r1 ^ s, s, h)
    V.d[a, 0] = r0
    V.d[a, 1] = r1
    return pc + 4


@executes("SHRN_v", hot=True)
def vshift_shrn(op, w, imm, pc, R, V, st, a, b, c, d):
    """Lanes twice as wide shifted right and truncated, a half of Vn at a time: the low
    half of every wide lane is its even-numbered narrow lane.  SHRN2 (Q = 1) writes the
    upper half of Vd and keeps the lower one."""
    q = fld(op, w, T.FLD_Q)
    sz = imm >> 8
    sh = imm & 0xFF
    r = (lanes_even(lanes_lsr(V.d[b, 0], sh, sz + 1), sz)
         | (lanes_even(lanes_lsr(V.d[b, 1], sh, sz + 1), sz) << 32))
    if q:
        V.d[a, 1] = r
    else:
        V.d[a, 0] = r
        V.d[a, 1] = 0
    return pc + 4


# Signedness of the source of each rounding or saturating row (1: signed), and its kind.
RSHR, RSRA, QSHL = 0, 1, 2
_ROUND_SAT = {"SRSHR_v": (RSHR, 1), "URSHR_v": (RSHR, 0), "SRSRA_v": (RSRA, 1), "URSRA_v": (RSRA, 0),
              "SQSHLU_v": (QSHL, 1), "SQSHL_vi": (QSHL, 1), "UQSHL_vi": (QSHL, 0),
              "SRSHR_s": (RSHR, 1), "URSHR_s": (RSHR, 0), "SRSRA_s": (RSRA, 1), "URSRA_s": (RSRA, 0),
              "SQSHLU_s": (QSHL, 1), "SQSHL_si": (QSHL, 1), "UQSHL_si": (QSHL, 0)}
RS_KIND = np.array([_ROUND_SAT.get(e.name, (-1, 0))[0] for e in T.TABLE], np.int64)
RS_SIGNED = np.array([_ROUND_SAT.get(e.name, (-1, 0))[1] for e in T.TABLE], np.int64)
SCALAR = np.array([e.cls == "simd" and "q" not in e.fields for e in T.TABLE], np.bool_)


@executes(*_ROUND_SAT)
def vshift_round_sat(op, w, imm, pc, R, V, st, a, b, c, d):
    """[SU]RSHR, [SU]RSRA (rounding right shifts, accumulating), SQSHLU, [SU]QSHL
    (saturating left shifts: a lane that saturates sets FPSR.QC)."""
    q = fld(op, w, T.FLD_Q)
    sz = imm >> 8
    sh = imm & 0xFF
    esize = 8 << sz
    kind = RS_KIND[op]
    sg = RS_SIGNED[op] == 1
    out_signed = op == T.SQSHL_vi or op == T.SQSHL_si     # SQSHLU: signed in, unsigned out
    n = 1 if SCALAR[op] else (16 if q else 8) >> sz
    res = V.tmp
    qc = False
    for i in range(n):
        x = sx(lane(V, b, sz, i), esize, sg)
        if kind == RSHR:
            r = rshr(x, sh, sg)
        elif kind == RSRA:
            r = lane(V, a, sz, i) + rshr(x, sh, sg)
        else:
            hi, lo = shl_wide(x, sh, sg)
            r, f = sat(hi, lo, esize, out_signed)
            qc |= f
        res[i] = r
    if SCALAR[op]:
        set_scalar(V, a, sz, res[0])
    else:
        write_lanes(V, a, sz, res, n, q)
    if qc:
        R[FPSR] |= QC
    return pc + 4


# Per narrowing row: (rounding, source signed, result signed, saturating).
_NARROW = {"RSHRN_v": (1, 0, 0, 0),
           "SQSHRUN_v": (0, 1, 0, 1), "SQRSHRUN_v": (1, 1, 0, 1), "SQSHRN_v": (0, 1, 1, 1),
           "UQSHRN_v": (0, 0, 0, 1), "SQRSHRN_v": (1, 1, 1, 1), "UQRSHRN_v": (1, 0, 0, 1),
           "SQSHRUN_s": (0, 1, 0, 1), "SQRSHRUN_s": (1, 1, 0, 1), "SQSHRN_s": (0, 1, 1, 1),
           "UQSHRN_s": (0, 0, 0, 1), "SQRSHRN_s": (1, 1, 1, 1), "UQRSHRN_s": (1, 0, 0, 1)}
NARROW = np.array([_NARROW.get(e.name, (0, 0, 0, 0)) for e in T.TABLE], np.int64)


@executes(*_NARROW)
def vshift_narrow(op, w, imm, pc, R, V, st, a, b, c, d):
    """Lanes twice the result's width shifted right (rounding or not), then truncated
    or saturated; the "2" forms (Q = 1) write the upper half of Vd."""
    q = fld(op, w, T.FLD_Q)
    rnd, in_sg, out_sg, saturate = NARROW[op, 0], NARROW[op, 1], NARROW[op, 2], NARROW[op, 3]
    if narrow(V, a, b, imm >> 8, q, SCALAR[op], imm & 0xFF, rnd == 1, in_sg == 1, out_sg == 1, saturate == 1):
        R[FPSR] |= QC
    return pc + 4


@executes("SCVTF_vfix", "UCVTF_vfix", "FCVTZS_vfix", "FCVTZU_vfix",
          "SCVTF_sfix", "UCVTF_sfix", "FCVTZS_sfix", "FCVTZU_sfix")
def vshift_fixed(op, w, imm, pc, R, V, st, a, b, c, d):
    """Fixed point (imm & 0xFF fraction bits) to FP and back, single or double lanes."""
    q = fld(op, w, T.FLD_Q)
    sz = imm >> 8
    fb = imm & 0xFF
    dbl = sz == 3
    to_fp = op == T.SCVTF_vfix or op == T.UCVTF_vfix or op == T.SCVTF_sfix or op == T.UCVTF_sfix
    uns = op == T.UCVTF_vfix or op == T.FCVTZU_vfix or op == T.UCVTF_sfix or op == T.FCVTZU_sfix
    width = 8 << sz
    n = 1 if SCALAR[op] else (16 if q else 8) >> sz
    res = V.tmp
    for i in range(n):
        x = lane(V, b, sz, i)
        R[FPSR] |= fixed_flags(x, to_fp, dbl, width, uns, fb)
        res[i] = fixed_to_fp(x, width, uns, fb, dbl) if to_fp else fp_to_fixed(x, dbl, 3, width, uns, fb)
    if SCALAR[op]:
        set_scalar(V, a, sz, res[0])
    else:
        write_lanes(V, a, sz, res, n, q)
    return pc + 4
