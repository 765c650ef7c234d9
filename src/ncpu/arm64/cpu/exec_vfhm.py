"""FEAT_FHM: FMLAL/FMLSL and FMLAL2/FMLSL2, vector and by element (the family of
the `FMLAL_v` ... `FMLSL2_vi` rows): half-precision products accumulated into
single-precision lanes, `fmlal v0.4s, v1.4h, v2.4h` / `fmlal2 v0.2s, v1.2h, v2.h[7]`.

Arm's FPMulAddH: each single lane of Vd plus the product of a half lane of Vn
(negated first for FMLSL, a NaN's sign too, as FPNeg does) and a half lane of
Vm (or the one element Vm.h[H:L:M], Vm from v0-v15), with a single rounding.
The plain forms read the lower half of the source lanes, the "2" forms the
upper (Vpart): lanes 0..n-1 or n..2n-1 for n result lanes (2 or 4, by Q).

A half converts to single exactly (fpu.half_to_single, NaNs and subnormals
included), and the product of two halves is exact in single, so the whole
operation is fpu's single-precision fused multiply-add on the converted
operands: NaNs picked in the order addend, Vn, Vm (signalling first) and
quietened in single, a quiet-NaN addend with inf * 0 the default NaN,
FPCR.DN honoured, and FPSR's flags as FMLA's.  As for every FP row here,
FPCR's rounding mode and flush-to-zero (FZ, FZ16) are not modelled.
"""
import numpy as np

from . import decode_table as T
from .decoder import fld
from .exec_velem import element
from .fpu import fma_bits_flags, fp_fma, half_to_single
from .rows import executes
from .state import FPCR, FPSR
from .vregs import lane, write_lanes

SIGN16 = np.int64(0x8000)


@executes("FMLAL_v", "FMLSL_v", "FMLAL2_v", "FMLSL2_v", "FMLAL_vi", "FMLSL_vi", "FMLAL2_vi", "FMLSL2_vi")
def vfhm(op, w, imm, pc, R, V, st, a, b, c, d):
    q = fld(op, w, T.FLD_Q)
    n = 4 if q else 2                                  # single-precision result lanes
    upper = op == T.FMLAL2_v or op == T.FMLSL2_v or op == T.FMLAL2_vi or op == T.FMLSL2_vi
    neg = SIGN16 if op == T.FMLSL_v or op == T.FMLSL2_v or op == T.FMLSL_vi or op == T.FMLSL2_vi else 0
    by_element = op == T.FMLAL_vi or op == T.FMLSL_vi or op == T.FMLAL2_vi or op == T.FMLSL2_vi
    first = n if upper else 0
    y = element(V, 1, c, fld(op, w, T.FLD_H), fld(op, w, T.FLD_L)) if by_element else 0
    fpcr = R[FPCR]
    flags = np.int64(0)
    res = V.tmp
    for i in range(n):
        x = half_to_single(lane(V, b, 1, first + i) ^ neg)
        m = half_to_single(y if by_element else lane(V, c, 1, first + i))
        acc = lane(V, a, 2, i)
        res[i] = fp_fma(x, m, acc, False, fpcr)
        flags |= fma_bits_flags(x, m, acc, False)
    write_lanes(V, a, 2, res, n, q)
    if flags:
        R[FPSR] |= flags
    return pc + 4
