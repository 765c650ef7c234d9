"""Executors for loads and stores: integer, FP/SIMD registers, pairs,
exclusives, LSE atomics and the SIMD structure loads LD1/ST1/LD2/ST2.

An access that faults leaves registers untouched (no writeback) so the
instruction can be restarted; `st` carries the fault.
"""
import numpy as np
from numba import njit

from . import decode_table as T
from .alu import extend_reg, sextn
from .decoder import bits
from .exec_int import xr
from .mmu import A_ALIGN, ST_REASON, fault, load, store, writable
from .state import EXCL_ADDR, EXCL_SIZE, EXCL_VAL
from .vregs import lane, set_lane


@njit(cache=True)
def _mask(size):
    return np.int64(-1) if size == 8 else (np.int64(1) << (8 * size)) - 1


@njit(cache=True)
def _single(m, st, R, V, addr, sz, v, opc, rt):
    """One LDR/STR of any register kind. Returns False on fault."""
    if v == 0:
        n = 1 << sz
        if opc == 0:
            store(m, st, addr, n, xr(R, rt))
            return st[ST_REASON] == 0
        if sz == 3 and opc == 2:
            return True                                # PRFM: a hint
        x = load(m, st, addr, n)
        if st[ST_REASON]:
            return False
        if opc == 2:
            x = sextn(x, 8 * n) if n < 8 else x
        elif opc == 3:
            x = sextn(x, 8 * n) & 0xFFFFFFFF
        if rt != 31:
            R[rt] = x
        return True
    if opc >= 2:                                       # Q register
        if opc == 2:
            if not writable(m, st, addr, 16):
                return False
            store(m, st, addr, 8, V.d[rt, 0])
            store(m, st, addr + 8, 8, V.d[rt, 1])
            return True
        lo = load(m, st, addr, 8)
        hi = load(m, st, addr + 8, 8)
        if st[ST_REASON]:
            return False
        V.d[rt, 0] = lo
        V.d[rt, 1] = hi
        return True
    n = 1 << sz
    if opc == 0:
        store(m, st, addr, n, lane(V, rt, 3, 0) & _mask(n))
        return st[ST_REASON] == 0
    x = load(m, st, addr, n)
    if st[ST_REASON]:
        return False
    V.d[rt, 0] = x
    V.d[rt, 1] = 0
    return True


@njit(cache=True)
def _pair(m, st, R, V, op, w, imm):
    opc = bits(w, 30, 2)
    v = bits(w, 26, 1)
    l = bits(w, 22, 1)
    rt = w & 31
    rt2 = bits(w, 10, 5)
    rn = bits(w, 5, 5)
    base = R[rn]
    addr = base if op == T.LDSTP_POST else base + imm
    if v:
        sz = 2 + opc                                   # S, D, Q
    else:
        sz = 3 if opc == 2 else 2
    n = 1 << sz
    if l == 0:
        if not writable(m, st, addr, 2 * n):
            return False
        if v:
            if sz == 4:
                store(m, st, addr, 8, V.d[rt, 0])
                store(m, st, addr + 8, 8, V.d[rt, 1])
                store(m, st, addr + 16, 8, V.d[rt2, 0])
                store(m, st, addr + 24, 8, V.d[rt2, 1])
            else:
                store(m, st, addr, n, V.d[rt, 0])
                store(m, st, addr + n, n, V.d[rt2, 0])
        else:
            store(m, st, addr, n, xr(R, rt))
            store(m, st, addr + n, n, xr(R, rt2))
    elif v:
        if sz == 4:
            a0 = load(m, st, addr, 8)
            a1 = load(m, st, addr + 8, 8)
            b0 = load(m, st, addr + 16, 8)
            b1 = load(m, st, addr + 24, 8)
        else:
            a0 = load(m, st, addr, n)
            b0 = load(m, st, addr + n, n)
            a1 = np.int64(0)
            b1 = np.int64(0)
        if st[ST_REASON]:
            return False
        V.d[rt, 0] = a0
        V.d[rt, 1] = a1
        V.d[rt2, 0] = b0
        V.d[rt2, 1] = b1
    else:
        a = load(m, st, addr, n)
        b = load(m, st, addr + n, n)
        if st[ST_REASON]:
            return False
        if opc == 1:                                   # LDPSW
            a = sextn(a, 32)
            b = sextn(b, 32)
        if rt != 31:
            R[rt] = a
        if rt2 != 31:
            R[rt2] = b
    if op == T.LDSTP_PRE:
        R[rn] = addr
    elif op == T.LDSTP_POST:
        R[rn] = base + imm
    return True


@njit(cache=True)
def _exclusive(m, st, R, w):
    sz = bits(w, 30, 2)
    o2 = bits(w, 23, 1)
    l = bits(w, 22, 1)
    o1 = bits(w, 21, 1)
    rs = bits(w, 16, 5)
    rt2 = bits(w, 10, 5)
    rn = bits(w, 5, 5)
    rt = w & 31
    addr = R[rn]
    n = 1 << sz
    if o2 == 1:                                        # LDAR / STLR
        return _ldar(m, st, R, addr, n, l, rt)
    total = 2 * n if o1 else n
    if l == 1:
        if addr & (total - 1):                         # qemu-user: SIGBUS
            fault(st, addr, A_ALIGN)
            return False
        a = load(m, st, addr, n)
        b = load(m, st, addr + n, n) if o1 else np.int64(0)
        if st[ST_REASON]:
            return False
        if rt != 31:
            R[rt] = a
        if o1 and rt2 != 31:
            R[rt2] = b
        R[EXCL_ADDR] = addr
        R[EXCL_SIZE] = total
        R[EXCL_VAL] = a
        R[EXCL_VAL + 1] = b
        return True
    # Like qemu-user: the store succeeds if the monitor holds this address and
    # memory still holds the values the load-exclusive saw (a cmpxchg).
    ok = R[EXCL_ADDR] == addr
    if ok:
        if addr & (total - 1):
            fault(st, addr, A_ALIGN)
            return False
        if not writable(m, st, addr, total):
            return False
        ok = load(m, st, addr, n) == R[EXCL_VAL]
        if o1:
            ok = ok and load(m, st, addr + n, n) == R[EXCL_VAL + 1]
    if ok:
        store(m, st, addr, n, xr(R, rt))
        if o1:
            store(m, st, addr + n, n, xr(R, rt2))
    R[EXCL_ADDR] = -1
    if rs != 31:
        R[rs] = 0 if ok else 1
    return True


@njit(cache=True)
def _ldar(m, st, R, addr, n, l, rt):
    if l == 0:
        store(m, st, addr, n, xr(R, rt))
        return st[ST_REASON] == 0
    x = load(m, st, addr, n)
    if st[ST_REASON]:
        return False
    if rt != 31:
        R[rt] = x
    return True


@njit(cache=True)
def _cas(m, st, R, w):
    n = 1 << bits(w, 30, 2)
    rs = bits(w, 16, 5)
    rt = w & 31
    addr = R[bits(w, 5, 5)]
    if addr & (n - 1):
        fault(st, addr, A_ALIGN)
        return False
    if not writable(m, st, addr, n):
        return False
    old = load(m, st, addr, n)
    if st[ST_REASON]:
        return False
    if old == xr(R, rs) & _mask(n):
        store(m, st, addr, n, xr(R, rt))
    if rs != 31:
        R[rs] = old
    return True


@njit(cache=True)
def _casp(m, st, R, w):
    """CASP: compare (Rs, Rs+1) with the pair of words at [Xn] (32-bit or
    64-bit each); if both match, store (Rt, Rt+1) there.  The pair read goes
    to (Rs, Rs+1) either way.  Rs and Rt are even (the decoder checks), so
    only Rs+1 / Rt+1 can be 31, which is XZR."""
    n = 8 if bits(w, 30, 1) else 4
    rs = bits(w, 16, 5)
    rt = w & 31
    addr = R[bits(w, 5, 5)]
    if addr & (2 * n - 1):                             # the whole pair must be aligned
        fault(st, addr, A_ALIGN)
        return False
    if not writable(m, st, addr, 2 * n):
        return False
    a = load(m, st, addr, n)
    b = load(m, st, addr + n, n)
    if st[ST_REASON]:
        return False
    mask = _mask(n)
    if a == xr(R, rs) & mask and b == xr(R, rs + 1) & mask:
        store(m, st, addr, n, xr(R, rt))
        store(m, st, addr + n, n, xr(R, rt + 1))
    R[rs] = a
    if rs + 1 != 31:
        R[rs + 1] = b
    return True


@njit(cache=True)
def _atomic(m, st, R, w):
    n = 1 << bits(w, 30, 2)
    rs = bits(w, 16, 5)
    rt = w & 31
    o3 = bits(w, 15, 1)
    opc = bits(w, 12, 3)
    addr = R[bits(w, 5, 5)]
    if o3 and opc == 4:                                # LDAPR
        return _ldar(m, st, R, addr, n, 1, rt)
    if addr & (n - 1):
        fault(st, addr, A_ALIGN)
        return False
    if not writable(m, st, addr, n):
        return False
    old = load(m, st, addr, n)
    if st[ST_REASON]:
        return False
    mask = _mask(n)
    x = xr(R, rs) & mask
    if o3:
        new = x                                        # SWP
    elif opc == 0:
        new = old + x
    elif opc == 1:
        new = old & ~x
    elif opc == 2:
        new = old ^ x
    elif opc == 3:
        new = old | x
    elif opc == 4 or opc == 5:                         # signed max / min
        so = sextn(old, 8 * n) if n < 8 else old
        sx = sextn(x, 8 * n) if n < 8 else x
        new = old if (so > sx) == (opc == 4) else x
    else:                                              # unsigned max / min
        bigger = (old ^ (-1 << 63)) > (x ^ (-1 << 63))
        new = old if bigger == (opc == 6) else x
    store(m, st, addr, n, new & mask)
    if rt != 31:
        R[rt] = old
    return True


@njit(cache=True)
def _vmult(m, st, R, V, op, w):
    """LD1/ST1 (1-4 registers) and LD2/ST2, no offset or post-index."""
    q = bits(w, 30, 1)
    l = bits(w, 22, 1)
    o = bits(w, 12, 4)
    sz = bits(w, 10, 2)
    rn = bits(w, 5, 5)
    rt = w & 31
    nbytes = 16 if q else 8
    addr = R[rn]
    if o == 8 or o == 4 or o == 0:                     # LD2/LD3/LD4 (ST2/3/4): interleaved structures
        nregs = 2 if o == 8 else 3 if o == 4 else 4
        e = 1 << sz
        lanes = nbytes // e
        total = nregs * nbytes
        if l:
            vals = np.empty(nregs * lanes, np.int64)
            for i in range(nregs * lanes):
                vals[i] = load(m, st, addr + i * e, e)
            if st[ST_REASON]:
                return False
            for r in range(nregs):
                rr = (rt + r) & 31
                V.d[rr, 1] = 0
                for i in range(lanes):
                    set_lane(V, rr, sz, i, vals[nregs * i + r])
        else:
            if not writable(m, st, addr, total):
                return False
            for i in range(lanes):
                for r in range(nregs):
                    store(m, st, addr + (nregs * i + r) * e, e, lane(V, (rt + r) & 31, sz, i))
    else:
        nregs = 1 if o == 7 else 2 if o == 10 else 3 if o == 6 else 4
        total = nregs * nbytes
        if l:
            vals = np.empty(2 * nregs, np.int64)
            for r in range(nregs):
                vals[2 * r] = load(m, st, addr + r * nbytes, 8)
                vals[2 * r + 1] = load(m, st, addr + r * nbytes + 8, 8) if q else 0
            if st[ST_REASON]:
                return False
            for r in range(nregs):
                V.d[(rt + r) & 31, 0] = vals[2 * r]
                V.d[(rt + r) & 31, 1] = vals[2 * r + 1]
        else:
            if not writable(m, st, addr, total):
                return False
            for r in range(nregs):
                store(m, st, addr + r * nbytes, 8, V.d[(rt + r) & 31, 0])
                if q:
                    store(m, st, addr + r * nbytes + 8, 8, V.d[(rt + r) & 31, 1])
    if op == T.LDST_VMULT_POST:
        rm = bits(w, 16, 5)
        R[rn] = addr + (total if rm == 31 else R[rm])
    return True


@njit(cache=True)
def _vsingle(m, st, R, V, op, w):
    """LD1/ST1 of one lane, and LD1R (load and replicate)."""
    q = bits(w, 30, 1)
    l = bits(w, 22, 1)
    o = bits(w, 13, 3)
    s = bits(w, 12, 1)
    size = bits(w, 10, 2)
    rn = bits(w, 5, 5)
    rt = w & 31
    addr = R[rn]
    if o == 6:                                         # LD1R
        sz = size
        x = load(m, st, addr, 1 << sz)
        if st[ST_REASON]:
            return False
        for i in range((16 if q else 8) >> sz):
            set_lane(V, rt, sz, i, x)
        if not q:
            V.d[rt, 1] = 0
    else:
        if o == 0:
            sz = 0
            idx = (q << 3) | (s << 2) | size
        elif o == 2:
            sz = 1
            idx = (q << 2) | (s << 1) | (size >> 1)
        elif size == 0:
            sz = 2
            idx = (q << 1) | s
        else:
            sz = 3
            idx = q
        if l:
            x = load(m, st, addr, 1 << sz)
            if st[ST_REASON]:
                return False
            set_lane(V, rt, sz, idx, x)
        else:
            store(m, st, addr, 1 << sz, lane(V, rt, sz, idx))
            if st[ST_REASON]:
                return False
    if op == T.LDST_VSINGLE_POST:
        rm = bits(w, 16, 5)
        R[rn] = addr + ((1 << sz) if rm == 31 else R[rm])
    return True


@njit(cache=True)
def exec_mem(op, w, imm, pc, R, V, m, st):
    rt = w & 31
    if op <= T.LDST_REG:
        sz = bits(w, 30, 2)
        v = bits(w, 26, 1)
        opc = bits(w, 22, 2)
        rn = bits(w, 5, 5)
        base = R[rn]
        if op == T.LDST_UI or op == T.LDST_UNSC:
            addr = base + imm
        elif op == T.LDST_PRE:
            addr = base + imm
        elif op == T.LDST_POST:
            addr = base
        else:
            scale = 4 if (v and opc >= 2) else sz
            addr = base + extend_reg(xr(R, bits(w, 16, 5)), bits(w, 13, 3), scale if bits(w, 12, 1) else 0)
        if not _single(m, st, R, V, addr, sz, v, opc, rt):
            return pc
        if op == T.LDST_PRE:
            R[rn] = addr
        elif op == T.LDST_POST:
            R[rn] = base + imm
        return pc + 4
    if op == T.LDR_LIT:
        opc = bits(w, 30, 2)
        if bits(w, 26, 1):
            ok = _single(m, st, R, V, pc + imm, 2 + opc, 1, 1, rt) if opc < 2 else _single(m, st, R, V, pc + imm, 0, 1, 3, rt)
        elif opc == 3:
            ok = True                                  # PRFM (literal)
        else:
            ok = _single(m, st, R, V, pc + imm, 3 if opc == 1 else 2, 0, 2 if opc == 2 else 1, rt)
        return pc + 4 if ok else pc
    if op <= T.LDSTP_PRE:
        ok = _pair(m, st, R, V, op, w, imm)
    elif op == T.LDST_EX:
        ok = _exclusive(m, st, R, w)
    elif op == T.CAS:
        ok = _cas(m, st, R, w)
    elif op == T.CASP:
        ok = _casp(m, st, R, w)
    elif op == T.ATOMIC:
        ok = _atomic(m, st, R, w)
    elif op <= T.LDST_VMULT_POST:
        ok = _vmult(m, st, R, V, op, w)
    else:
        ok = _vsingle(m, st, R, V, op, w)
    return pc + 4 if ok else pc
