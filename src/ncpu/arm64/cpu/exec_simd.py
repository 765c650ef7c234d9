"""Advanced SIMD executor: the integer vector subset compilers and glibc use.

Vectors are handled lane by lane (lane/set_lane from vregs.py) into a small
result buffer that is written back at the end, so a destination that is
also a source reads the old value.  A 64-bit (Q=0) result zeroes the upper
half of the destination, as on hardware.
"""
import numpy as np
from numba import njit

from . import decode_table as T
from .alu import lsr, sextn, ult
from .decoder import bits
from .exec_int import xr
from .exec_sat import exec_sat, is_sat
from .vregs import lane, set_lane, write_lanes, write_narrow
from .exec_vfp import by_element, exec_scalar, vfp_across, vfp_fixed, vfp_three_same, vfp_two_misc
from .state import FPCR


@njit(cache=True)
def _s(x, sz):
    """Signed value of a lane of width 8 << sz."""
    return x if sz == 3 else sextn(x, 8 << sz)


@njit(cache=True)
def _emask(sz):
    return np.int64(-1) if sz == 3 else (np.int64(1) << (8 << sz)) - 1


@njit(cache=True)
def _bitwise(V, w, rd, rn, rm, q):
    u = bits(w, 29, 1)
    size = bits(w, 22, 2)
    for h in range(2 if q else 1):
        a, b, d = V.d[rn, h], V.d[rm, h], V.d[rd, h]
        if u == 0:
            r = (a & b, a & ~b, a | b, a | ~b)[size]
        elif size == 0:
            r = a ^ b
        elif size == 1:
            r = (d & a) | (~d & b)                       # BSL
        elif size == 2:
            r = (d & ~b) | (a & b)                       # BIT
        else:
            r = (d & b) | (a & ~b)                       # BIF
        V.d[rd, h] = r
    if not q:
        V.d[rd, 1] = 0


@njit(cache=True)
def _three_same(V, w, rd, rn, rm, q):
    o = bits(w, 11, 5)
    if o == 3:
        _bitwise(V, w, rd, rn, rm, q)
        return
    u = bits(w, 29, 1)
    sz = bits(w, 22, 2)
    n = (16 if q else 8) >> sz
    mask = _emask(sz)
    res = np.empty(16, np.int64)
    if o == 23 or o == 20 or o == 21:                    # pairwise over concat(n, m)
        for i in range(n):
            src = rn if 2 * i < n else rm
            j = (2 * i) % n
            a, b = lane(V, src, sz, j), lane(V, src, sz, j + 1)
            if o == 23:
                res[i] = a + b
            else:
                if u:
                    a_gt = ult(b, a) if sz == 3 else a > b
                else:
                    a_gt = _s(a, sz) > _s(b, sz)
                res[i] = a if a_gt == (o == 20) else b
        write_lanes(V, rd, sz, res, n, q)
        return
    for i in range(n):
        a, b = lane(V, rn, sz, i), lane(V, rm, sz, i)
        if o == 16:
            r = a - b if u else a + b
        elif o == 17:
            r = mask if ((a == b) if u else (a & b) != 0) else 0
        elif o == 6 or o == 7:
            if u:
                gt = ult(b, a) if sz == 3 else a > b
            else:
                gt = _s(a, sz) > _s(b, sz)
            r = mask if (gt or (o == 7 and a == b)) else 0
        elif o == 12 or o == 13:
            if u:
                gt = ult(b, a) if sz == 3 else a > b
            else:
                gt = _s(a, sz) > _s(b, sz)
            r = a if gt == (o == 12) else b
        elif o == 18:                                    # MLA / MLS
            d = lane(V, rd, sz, i)
            r = d - a * b if u else d + a * b
        elif o == 14 or o == 15:                         # SABD / UABD (+ accumulate: SABA / UABA)
            r = abs(a - b) if u else abs(_s(a, sz) - _s(b, sz))
            if o == 15:
                r += lane(V, rd, sz, i)
        elif o == 8:                                     # SSHL / USHL: shift by a signed byte
            s = sextn(b & 0xFF, 8)
            esize = 8 << sz
            if s >= 0:
                r = 0 if s >= esize else a << s
            elif u:
                r = 0 if -s >= esize else lsr(a, -s)
            else:
                r = _s(a, sz) >> min(-s, esize - 1)
        else:                                            # MUL
            r = a * b
        res[i] = r
    write_lanes(V, rd, sz, res, n, q)


@njit(cache=True)
def _two_misc(V, w, rd, rn, q):
    o = bits(w, 12, 5)
    u = bits(w, 29, 1)
    sz = bits(w, 22, 2)
    if o == 5:
        sz = 0                                           # CNT/NOT/RBIT work on bytes
    nb = 16 if q else 8
    n = nb >> sz
    mask = _emask(sz)
    res = np.empty(16, np.int64)
    if o == 0 or o == 1:                                 # REV64 / REV32 / REV16
        cont = (8 if u == 0 else 4) if o == 0 else 2     # container bytes
        per = cont >> sz                                 # elements per container
        for i in range(n):
            base = (i // per) * per
            res[i] = lane(V, rn, sz, base + per - 1 - (i - base))
        write_lanes(V, rd, sz, res, n, q)
        return
    if o == 19:                                          # SHLL / SHLL2
        cnt = 8 >> sz
        off = cnt if q else 0
        for i in range(cnt):
            res[i] = lane(V, rn, sz, off + i) << (8 << sz)
        write_lanes(V, rd, sz + 1, res, cnt, 1)
        return
    if o == 2 or o == 6:                                 # [SU]ADDLP, [SU]ADALP: add pairs into wider lanes
        for i in range(n >> 1):
            a, b = lane(V, rn, sz, 2 * i), lane(V, rn, sz, 2 * i + 1)
            r = a + b if u else _s(a, sz) + _s(b, sz)
            if o == 6:
                r += lane(V, rd, sz + 1, i)
            res[i] = r
        write_lanes(V, rd, sz + 1, res, n >> 1, q)
        return
    if o == 18:                                          # XTN / XTN2
        for i in range(8 >> sz):
            res[i] = lane(V, rn, sz + 1, i)
        write_narrow(V, rd, sz, res, 8 >> sz, q)
        return
    for i in range(n):
        a = lane(V, rn, sz, i)
        sa = _s(a, sz)
        if o == 5:
            if u == 0:                                   # CNT
                c = 0
                for k in range(8):
                    c += (a >> k) & 1
                r = c
            elif bits(w, 22, 2) == 0:                    # NOT
                r = ~a
            else:                                        # RBIT (bytes)
                r = 0
                for k in range(8):
                    r |= ((a >> k) & 1) << (7 - k)
        elif o == 8:
            r = mask if (sa > 0 or (u == 1 and sa == 0)) else 0
        elif o == 9:
            r = mask if (sa == 0 or (u == 1 and sa < 0)) else 0
        elif o == 10:
            r = mask if sa < 0 else 0
        else:                                            # ABS / NEG
            r = -sa if (u == 1 or sa < 0) else sa
        res[i] = r
    write_lanes(V, rd, sz, res, n, q)


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
def _three_diff(V, w, rd, rn, rm, q):
    o = bits(w, 12, 4)
    u = bits(w, 29, 1)
    sz = bits(w, 22, 2)
    cnt = 8 >> sz
    off = cnt if q else 0
    res = np.empty(16, np.int64)
    for i in range(cnt):
        b = lane(V, rm, sz, off + i)
        b = b if u else _s(b, sz)
        if o == 1:
            a = lane(V, rn, sz + 1, i)
            a = a if u else _s(a, sz + 1)
        else:
            a = lane(V, rn, sz, off + i)
            a = a if u else _s(a, sz)
        if o == 12:
            res[i] = a * b
        elif o == 2:
            res[i] = a - b
        else:
            res[i] = a + b
    write_lanes(V, rd, sz + 1, res, cnt, 1)


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
    if op >= T.S3SAME and op != T.SELEM:
        exec_scalar(op, w, V, R[FPCR], R)
    elif op == T.VELEM or op == T.SELEM:
        by_element(V, w, rd, rn, q, op == T.SELEM, R[FPCR], R)
    elif op == T.V3SAME:
        if bits(w, 11, 5) >= 24:
            vfp_three_same(V, w, rd, rn, rm, q, R[FPCR], R)
        else:
            _three_same(V, w, rd, rn, rm, q)
    elif op == T.V2MISC:
        o = bits(w, 12, 5)
        if o >= 12 and o != 18 and o != 19:
            vfp_two_misc(V, w, rd, rn, q, R[FPCR], R)
        else:
            _two_misc(V, w, rd, rn, q)
    elif op == T.VACROSS:
        if bits(w, 12, 5) == 12 or bits(w, 12, 5) == 15:
            vfp_across(V, w, rd, rn, R[FPCR], R)
        else:
            _across(V, w, rd, rn, q)
    elif op == T.VSHIFT:
        if bits(w, 11, 5) >= 28:
            vfp_fixed(V, w, rd, rn, q, bits(w, 19, 4), bits(w, 16, 7), R)
        else:
            _shift(V, w, rd, rn, q)
    elif op == T.V3DIFF:
        _three_diff(V, w, rd, rn, rm, q)
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
    else:                                                # ADDP (scalar)
        x = V.d[rn, 0] + V.d[rn, 1]
        V.d[rd, 0] = x
        V.d[rd, 1] = 0
    return pc + 4
