"""Advanced SIMD permutes, EXT and table lookups: the families of their rows.

UZP1/UZP2 (even/odd lanes of Vn:Vm), ZIP1/ZIP2 (lanes of the low/high halves
of Vn and Vm in turn), TRN1/TRN2 (even/odd lanes of each pair), EXT (bytes
of Vm:Vn from #imm4 on) and TBL/TBX (bytes picked by index from a list of
one to four registers).  Registers: a = Vd, b = Vn, c = Vm; rows told apart
by id, Q and size read by name.  All are carried inline by the hot loop
(gcc's vectorised loops narrow and widen through UZP1 and ZIP1, shift a
window with EXT, permute with TBL): the permutes and EXT as whole-word SWAR
code (swar.py), TBL and TBX byte by byte into two words (no buffer).  Out
of line, each cost 100-200 ns, mostly the calls.
"""
import numpy as np

from . import decode_table as T
from .int_ops import lsr
from .decoder import fld
from .rows import executes
from .swar import bytes_from, lanes_even, lanes_interleave, lane_ones, lows


@executes("UZP1_v", "UZP2_v", "ZIP1_v", "ZIP2_v", "TRN1_v", "TRN2_v", hot=True)
def vperm_swar(op, w, imm, pc, R, V, st, a, b, c, d):
    """A 64-bit half of the result at a time from the halves n0, n1 of Vn and m0, m1 of Vm."""
    q = fld(op, w, T.FLD_Q)
    sz = fld(op, w, T.FLD_SIZE)
    e = 8 << sz
    n0, n1, m0, m1 = V.d[b, 0], V.d[b, 1], V.d[c, 0], V.d[c, 1]
    if sz == 3:                                      # one lane per half (Q = 1): all three agree
        if op == T.UZP1_v or op == T.ZIP1_v or op == T.TRN1_v:
            r0, r1 = n0, m0
        else:
            r0, r1 = n1, m1
    elif op == T.UZP1_v or op == T.UZP2_v:          # even (odd) lanes of Vn, then of Vm
        k = 0 if op == T.UZP1_v else e
        if q:
            r0 = lanes_even(lsr(n0, k), sz) | (lanes_even(lsr(n1, k), sz) << 32)
            r1 = lanes_even(lsr(m0, k), sz) | (lanes_even(lsr(m1, k), sz) << 32)
        else:
            r0 = lanes_even(lsr(n0, k), sz) | (lanes_even(lsr(m0, k), sz) << 32)
            r1 = np.int64(0)
    elif op == T.ZIP1_v or op == T.ZIP2_v:          # the low (high) half's lanes of Vn and Vm in turn
        if q:
            x, y = (n0, m0) if op == T.ZIP1_v else (n1, m1)
            r0 = lanes_interleave(x, y, sz)
            r1 = lanes_interleave(lsr(x, 32), lsr(y, 32), sz)
        else:
            k = 0 if op == T.ZIP1_v else 32
            r0 = lanes_interleave(lsr(n0, k), lsr(m0, k), sz)
            r1 = np.int64(0)
    else:                                            # TRN1 (TRN2): even (odd) lanes of each pair
        even = lows(sz + 1) * lane_ones(sz)
        if op == T.TRN1_v:
            r0 = (n0 & even) | ((m0 & even) << e)
            r1 = (n1 & even) | ((m1 & even) << e)
        else:
            r0 = (lsr(n0, e) & even) | (m0 & ~even)
            r1 = (lsr(n1, e) & even) | (m1 & ~even)
    V.d[a, 0] = r0
    V.d[a, 1] = r1 if q else 0
    return pc + 4


@executes("EXT_v", hot=True)
def vext(op, w, imm, pc, R, V, st, a, b, c, d):
    """Bytes #imm4 on of Vm:Vn (Vn first): 16 of the 32 (Q = 1) or 8 of the 16 (Q = 0)."""
    q = fld(op, w, T.FLD_Q)
    k = fld(op, w, T.FLD_IMM4)
    n0, n1, m0, m1 = V.d[b, 0], V.d[b, 1], V.d[c, 0], V.d[c, 1]
    if not q:
        r0, r1 = bytes_from(n0, m0, k), np.int64(0)
    elif k < 8:
        r0, r1 = bytes_from(n0, n1, k), bytes_from(n1, m0, k)
    else:
        r0, r1 = bytes_from(n1, m0, k - 8), bytes_from(m0, m1, k - 8)
    V.d[a, 0] = r0
    V.d[a, 1] = r1
    return pc + 4


# Out of line: inline, its byte loop made every integer row of the loop slower (README).
@executes("TBL1_v", "TBL2_v", "TBL3_v", "TBL4_v", "TBX1_v", "TBX2_v", "TBX3_v", "TBX4_v")
def vtable(op, w, imm, pc, R, V, st, a, b, c, d):
    """Each byte of Vm indexes the bytes of the registers Vn, Vn+1, ... (wrapping past
    v31); an index past the table gives 0 (TBL) or leaves Vd's byte (TBX).  The result
    is gathered into two words and written at the end (Vd may be in the table)."""
    q = fld(op, w, T.FLD_Q)
    nt = (1 if op == T.TBL1_v or op == T.TBX1_v else 2 if op == T.TBL2_v or op == T.TBX2_v
          else 3 if op == T.TBL3_v or op == T.TBX3_v else 4)
    r0, r1 = np.int64(0), np.int64(0)
    for i in range(16 if q else 8):
        j = np.int64(V.b[c, i])
        if j < 16 * nt:
            x = np.int64(V.b[(b + (j >> 4)) & 31, j & 15])
        elif op == T.TBX1_v or op == T.TBX2_v or op == T.TBX3_v or op == T.TBX4_v:
            x = np.int64(V.b[a, i])
        else:
            x = np.int64(0)
        if i < 8:
            r0 |= x << (8 * i)
        else:
            r1 |= x << (8 * (i - 8))
    V.d[a, 0] = r0
    V.d[a, 1] = r1
    return pc + 4
