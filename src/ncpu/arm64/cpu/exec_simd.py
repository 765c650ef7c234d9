"""Advanced SIMD executor of the coarse rows (one row, many instructions).

The rows split per form have families of their own (exec_vec3.py,
exec_vdiff.py, exec_vmisc.py, exec_vshift.py, exec_vperm.py); the loop calls
this for the rest, which are being split.

Vectors are handled lane by lane (lane/set_lane from vregs.py) into a small
result buffer that is written back at the end, so a destination that is
also a source reads the old value.  A 64-bit (Q=0) result zeroes the upper
half of the destination, as on hardware.
"""
import numpy as np
from numba import njit

from . import decode_table as T
from .alu import sextn
from .decoder import bits
from .exec_int import xr
from .exec_sat import exec_sat
from .simd_valid import is_sat
from .vregs import lane, set_lane, write_lanes
from .exec_vfp import by_element, exec_scalar, vfp_across, vfp_three_same, vfp_two_misc
from .state import FPCR


@njit(cache=True)
def _s(x, sz):
    """Signed value of a lane of width 8 << sz."""
    return x if sz == 3 else sextn(x, 8 << sz)


@njit(cache=True)
def _emask(sz):
    return np.int64(-1) if sz == 3 else (np.int64(1) << (8 << sz)) - 1


@njit(cache=True)
def _across(V, w, rd, rn, q):
    o = bits(w, 12, 5)
    u = bits(w, 29, 1)
    sz = bits(w, 22, 2)
    n = (16 if q else 8) >> sz
    acc = lane(V, rn, sz, 0)
    if o == 3 or o == 27:
        acc = np.int64(0)
        for i in range(n):
            x = lane(V, rn, sz, i)
            acc += _s(x, sz) if (o == 3 and u == 0) else x
        V.d[rd, 0] = 0
        V.d[rd, 1] = 0
        set_lane(V, rd, sz + 1 if o == 3 else sz, 0, acc)
        return
    for i in range(1, n):
        x = lane(V, rn, sz, i)
        gt = x > acc if u else _s(x, sz) > _s(acc, sz)
        if gt == (o == 10):
            acc = x
    V.d[rd, 0] = 0
    V.d[rd, 1] = 0
    set_lane(V, rd, sz, 0, acc)


@njit(cache=True)
def exec_simd(op, w, imm, pc, R, V, st):
    rd = w & 31
    rn = (w >> 5) & 31
    rm = (w >> 16) & 31
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
    if is_sat(op, w):                                    # saturating / rounding / halving forms
        exec_sat(op, w, V, R)
        return pc + 4
    if op >= T.S3SAME and op != T.SELEM:
        exec_scalar(op, w, V, R[FPCR], R)
    elif op == T.VELEM or op == T.SELEM:
        by_element(V, w, rd, rn, q, op == T.SELEM, R[FPCR], R)
    elif op == T.V3SAME:                                 # the FP forms (the integer ones: exec_vec3)
        vfp_three_same(V, w, rd, rn, rm, q, R[FPCR], R)
    elif op == T.V2MISC:                                 # the FP forms (the integer ones: exec_vmisc)
        vfp_two_misc(V, w, rd, rn, q, R[FPCR], R)
    elif op == T.VACROSS:
        if bits(w, 12, 5) == 12 or bits(w, 12, 5) == 15:
            vfp_across(V, w, rd, rn, R[FPCR], R)
        else:
            _across(V, w, rd, rn, q)
    else:                                                # ADDP (scalar)
        x = V.d[rn, 0] + V.d[rn, 1]
        V.d[rd, 0] = x
        V.d[rd, 1] = 0
    return pc + 4
