"""Advanced SIMD executor of the coarse rows (one row, many instructions).

The rows split per form have families of their own (exec_vec3.py,
exec_vdiff.py, exec_vmisc.py); the loop calls this for the rest, which are
being split.

Vectors are handled lane by lane (lane/set_lane from vregs.py) into a small
result buffer that is written back at the end, so a destination that is
also a source reads the old value.  A 64-bit (Q=0) result zeroes the upper
half of the destination, as on hardware.
"""
import numpy as np
from numba import njit

from . import decode_table as T
from .alu import lsr, sextn
from .decoder import bits
from .exec_int import xr
from .exec_sat import exec_sat
from .simd_valid import is_sat
from .vregs import lane, set_lane, write_lanes, write_narrow
from .exec_vfp import exec_scalar, vfp_fixed
from .state import FPCR


@njit(cache=True)
def _s(x, sz):
    """Signed value of a lane of width 8 << sz."""
    return x if sz == 3 else sextn(x, 8 << sz)


@njit(cache=True)
def _emask(sz):
    return np.int64(-1) if sz == 3 else (np.int64(1) << (8 << sz)) - 1


@njit(cache=True)
def _shift(V, w, rd, rn, q):
    immh = bits(w, 19, 4)
    immhb = bits(w, 16, 7)
    o = bits(w, 11, 5)
    u = bits(w, 29, 1)
    sz = 3 if immh & 8 else 2 if immh & 4 else 1 if immh & 2 else 0
    esize = 8 << sz
    res = np.empty(16, np.int64)
    if o == 16:                                          # SHRN / SHRN2
        sh = 2 * esize - immhb
        cnt = 8 >> sz
        for i in range(cnt):
            res[i] = lsr(lane(V, rn, sz + 1, i), sh)
        write_narrow(V, rd, sz, res, cnt, q)
        return
    if o == 20:                                          # SSHLL / USHLL (SXTL / UXTL)
        sh = immhb - esize
        cnt = 8 >> sz
        off = cnt if q else 0
        for i in range(cnt):
            x = lane(V, rn, sz, off + i)
            res[i] = (x if u else _s(x, sz)) << sh
        write_lanes(V, rd, sz + 1, res, cnt, 1)
        return
    n = (16 if q else 8) >> sz
    mask = _emask(sz)
    for i in range(n):
        x = lane(V, rn, sz, i)
        if o == 10:                                      # SHL, SLI (U = 1: keep the low bits of Vd)
            sh = immhb - esize
            r = x << sh
            if u:
                r |= lane(V, rd, sz, i) & ~(mask << sh)
        elif o == 8:                                     # SRI: keep the high bits of Vd
            sh = 2 * esize - immhb
            if sh == esize:
                r = lane(V, rd, sz, i)                   # #esize inserts nothing
            else:
                r = lsr(x, sh) | (lane(V, rd, sz, i) & ~lsr(mask, sh))
        else:                                            # SSHR/USHR, SSRA/USRA
            sh = 2 * esize - immhb
            if u:
                r = 0 if sh >= 64 else lsr(x, sh)
            else:
                r = _s(x, sz) >> min(sh, 63)
            if o == 2:
                r += lane(V, rd, sz, i)
        res[i] = r
    write_lanes(V, rd, sz, res, n, q)


@njit(cache=True)
def _perm(V, w, rd, rn, rm, q):
    o = bits(w, 12, 3)
    sz = bits(w, 22, 2)
    n = (16 if q else 8) >> sz
    half = n // 2
    res = np.empty(16, np.int64)
    part = o >> 2                                        # 0: *1, 1: *2
    kind = o & 3                                         # 1 UZP, 2 TRN, 3 ZIP
    for i in range(n):
        if kind == 1:
            j = 2 * i + part
            res[i] = lane(V, rn, sz, j) if j < n else lane(V, rm, sz, j - n)
        elif kind == 2:
            base = (i & ~1) + part
            res[i] = lane(V, rn if i % 2 == 0 else rm, sz, base)
        else:
            j = i // 2 + part * half
            res[i] = lane(V, rn if i % 2 == 0 else rm, sz, j)
    write_lanes(V, rd, sz, res, n, q)


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
    if op == T.SSHIFT:
        exec_scalar(op, w, V, R[FPCR], R)
    elif op == T.VSHIFT:
        if bits(w, 11, 5) >= 28:
            vfp_fixed(V, w, rd, rn, q, bits(w, 19, 4), bits(w, 16, 7), R)
        else:
            _shift(V, w, rd, rn, q)
    elif op == T.EXT:
        nb = 16 if q else 8
        k = bits(w, 11, 4)
        res = np.empty(16, np.int64)
        for i in range(nb):
            j = i + k
            res[i] = lane(V, rn, 0, j) if j < nb else lane(V, rm, 0, j - nb)
        write_lanes(V, rd, 0, res, nb, q)
    elif op == T.TBL:
        nb = 16 if q else 8
        nt = bits(w, 13, 2) + 1
        tbx = bits(w, 12, 1)
        res = np.empty(16, np.int64)
        for i in range(nb):
            j = lane(V, rm, 0, i)
            if j < 16 * nt:
                res[i] = lane(V, (rn + j // 16) & 31, 0, j % 16)
            else:
                res[i] = lane(V, rd, 0, i) if tbx else 0
        write_lanes(V, rd, 0, res, nb, q)
    elif op == T.VPERM:
        _perm(V, w, rd, rn, rm, q)
    return pc + 4
