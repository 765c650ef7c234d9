"""Advanced SIMD executor of the rows without a family yet: DUP, INS, SMOV, UMOV
and the modified immediates (MOVI, MVNI, ORR, BIC).

Every other SIMD row has a family of its own (exec_vec3.py, exec_vdiff.py,
exec_vmisc.py, exec_vshift.py, exec_vperm.py, exec_vfparith.py, ...); the
loop calls this for these few.

Vectors are handled lane by lane (lane/set_lane from vregs.py) into a small
result buffer that is written back at the end, so a destination that is
also a source reads the old value.  A 64-bit (Q=0) result zeroes the upper
half of the destination, as on hardware.
"""
import numpy as np
from numba import njit

from . import decode_table as T
from .decoder import bits
from .alu import sextn
from .exec_int import xr
from .vregs import lane, set_lane, write_lanes


@njit(cache=True)
def _s(x, sz):
    """Signed value of a lane of width 8 << sz."""
    return x if sz == 3 else sextn(x, 8 << sz)


@njit(cache=True)
def exec_simd(op, w, imm, pc, R, V, st):
    rd = w & 31
    rn = (w >> 5) & 31
    q = bits(w, 30, 1)
    if op <= T.INS_ELEM:
        imm5 = bits(w, 16, 5)
        sz = 0 if imm5 & 1 else 1 if imm5 & 2 else 2 if imm5 & 4 else 3
        idx = imm5 >> (sz + 1)
        if op == T.DUP_ELEM or op == T.DUP_GEN:
            x = lane(V, rn, sz, idx) if op == T.DUP_ELEM else xr(R, rn)
            res = np.empty(16, np.int64)
            n = (16 if q else 8) >> sz
            for i in range(n):
                res[i] = x
            write_lanes(V, rd, sz, res, n, q)
        elif op == T.INS_GEN:
            set_lane(V, rd, sz, idx, xr(R, rn))
        elif op == T.INS_ELEM:
            set_lane(V, rd, sz, idx, lane(V, rn, sz, bits(w, 11, 4) >> sz))
        else:
            x = lane(V, rn, sz, idx)
            if op == T.SMOV:
                x = _s(x, sz)
                if not q:
                    x &= 0xFFFFFFFF
            if rd != 31:
                R[rd] = x
        return pc + 4
    if op == T.VMOVI:
        cmode = bits(w, 12, 4)
        o = bits(w, 29, 1)
        if cmode < 12 and cmode & 1:                     # ORR / BIC (vector, immediate)
            for h in range(2 if q else 1):
                V.d[rd, h] = (V.d[rd, h] & ~imm) if o else (V.d[rd, h] | imm)
            if not q:
                V.d[rd, 1] = 0
        else:
            x = ~imm if (o == 1 and cmode < 14) else imm
            V.d[rd, 0] = x
            V.d[rd, 1] = x if q else 0
        return pc + 4
    return pc + 4
