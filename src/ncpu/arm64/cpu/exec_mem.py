"""Executors for loads and stores: integer, FP/SIMD registers, pairs,
exclusives and LSE atomics (the vector structure loads and stores: exec_vstruct.py).

An access that faults leaves registers untouched (no writeback) so the
instruction can be restarted; `st` carries the fault.

The single-register and pair rows are executor families (rows.py) that the
hot loop carries inline: each translates its address once, reads or writes
the backing store directly when the access lies inside one mapped page with
the right permission (at any alignment: memcpy/memmove to an odd address and
unaligned string loads are common in libc), and otherwise goes through
guest_access.load/store (the general path: page-crossing, faulting).  Either way the
register semantics (sizes, sign extension, writeback) are written once, below.
"""
import numpy as np

from . import decode_table as T
from .int_ops import extend_reg, sextn
from .decoder import bits
from .exec_int import xr
from .jit import njit
from .memory import NPAGES
from .guest_access import (forget_decoded, host_read, host_write, load, load16, load32, load64,  # noqa: F401
                           store, store16, store32, store64, writable)  # (loadN/storeN: host_read/host_write's, in the loop)
from .stops import A_ALIGN, ST_REASON, fault
from .rows import executes, inlined
from .state import EXCL_ADDR, EXCL_SIZE, EXCL_VAL


@njit(cache=True)
def _mask(size):
    return np.int64(-1) if size == 8 else (np.int64(1) << (8 * size)) - 1


# The direct path of the families below, copied into the loop by gen_loop (rows.inlined);
# host_read/host_write (guest_access.py) with it.
@inlined
def host_index(m, addr, n, need):
    """Offset of [addr, addr+n) in the backing store when it lies inside one page
    mapped with permission `need` (1 read, 2 write), else -1 (the caller then
    takes the general path: page-crossing accesses and faults).  Any alignment:
    host_read/host_write access the store unaligned."""
    page = addr >> 12
    if page < 0 or page >= NPAGES or (addr & 4095) + n > 4096:
        return np.int64(-1)
    prow = np.int64(m.pt[page])
    if prow < 0 or (m.perm[page] & need) == 0:
        return np.int64(-1)
    if need == 2:
        crow = m.dc_row[page]
        if crow >= 0:                                  # a store into decoded code
            forget_decoded(m.dc_op, crow)
    return (prow << 12) + (addr & 4095)


@executes("LDST_UI", "LDST_UNSC", "LDST_PRE", "LDST_POST", "LDST_REG", "LDR_LIT")
def ldst_single(op, w, imm, pc, R, V, m, st):
    """LDR/STR (and LDRB/LDRSW/..., PRFM) of an X/W or B/H/S/D/Q register;
    LDR (literal) as the pc-relative load it is."""
    size = (w >> 30) & 3
    v = (w >> 26) & 1
    opc = (w >> 22) & 3
    rt = w & 31
    rn = (w >> 5) & 31
    base = R[rn]
    if op == T.LDR_LIT:                 # bits 31:30 say the kind: W/S, X/D, LDRSW/Q, PRFM
        lit = size
        base = pc
        if v == 1:
            size = 0 if lit == 2 else 2 + lit
            opc = 3 if lit == 2 else 1
        else:
            size = 2 if lit == 0 or lit == 2 else 3
            opc = 1 if lit < 2 else 2
    sz = 4 if v == 1 and opc >= 2 else size           # log2 of the access size (Q: 16 bytes)
    if op == T.LDST_REG:
        rm = (w >> 16) & 31
        addr = base + extend_reg(R[rm] if rm != 31 else 0, (w >> 13) & 7, sz if (w >> 12) & 1 else 0)
    elif op == T.LDST_POST:
        addr = base
    else:
        addr = base + imm
    e = 8 if sz == 4 else np.int64(1) << sz            # bytes per access (a Q register is two)
    store_ = opc == 0 or (v == 1 and opc == 2)
    ok = True                                          # False: a fault, the instruction does not retire
    if v == 0 and size == 3 and opc == 2:
        pass                                           # PRFM: a hint, no access
    elif store_:
        if v == 0:
            lo = R[rt] if rt != 31 else 0
        else:
            lo = V.d[rt, 0]
        idx = host_index(m, addr, np.int64(1) << sz, 2)
        if idx >= 0:
            host_write(m, idx, e, lo)
            if sz == 4:
                host_write(m, idx + 8, 8, V.d[rt, 1])
        elif sz == 4:
            ok = writable(m, st, addr, 16)
            if ok:
                store(m, st, addr, 8, lo)
                store(m, st, addr + 8, 8, V.d[rt, 1])
        else:
            store(m, st, addr, e, lo)
            ok = st[ST_REASON] == 0
    else:
        hi = np.int64(0)
        idx = host_index(m, addr, np.int64(1) << sz, 1)
        if idx >= 0:
            x = host_read(m, idx, e)
            if sz == 4:
                hi = host_read(m, idx + 8, 8)
        else:
            x = load(m, st, addr, e)
            if sz == 4:
                hi = load(m, st, addr + 8, 8)
            ok = st[ST_REASON] == 0
        if not ok:
            pass
        elif v == 1:
            V.d[rt, 0] = x
            V.d[rt, 1] = hi
        elif rt != 31:
            if opc == 2 and e < 8:                     # LDRS* to X
                x = sextn(x, 8 * e)
            elif opc == 3:                             # LDRS* to W
                x = sextn(x, 8 * e) & 0xFFFFFFFF
            R[rt] = x
    if not ok:
        return pc
    if op == T.LDST_PRE:
        R[rn] = addr
    elif op == T.LDST_POST:
        R[rn] = base + imm
    return pc + 4


@executes("LDSTNP", "LDSTP_POST", "LDSTP_OFF", "LDSTP_PRE")
def ldst_pair(op, w, imm, pc, R, V, m, st):
    """LDP/STP/LDNP/STNP/LDPSW of X/W or S/D/Q registers."""
    opc = (w >> 30) & 3
    v = (w >> 26) & 1
    l = (w >> 22) & 1
    rt = w & 31
    rt2 = (w >> 10) & 31
    rn = (w >> 5) & 31
    base = R[rn]
    addr = base if op == T.LDSTP_POST else base + imm
    sz = 2 + opc if v == 1 else (3 if opc == 2 else 2)     # log2 of one register's size
    n = np.int64(1) << sz
    e = 8 if sz == 4 else n                                 # bytes per access
    k = 2 * n // e                                          # accesses: 2, or 4 for a Q pair
    idx = host_index(m, addr, 2 * n, 2 - l)
    if l == 0:
        if v == 0:
            x0 = R[rt] if rt != 31 else 0
            x1 = R[rt2] if rt2 != 31 else 0
            x2 = np.int64(0)
            x3 = np.int64(0)
        elif sz == 4:
            x0 = V.d[rt, 0]
            x1 = V.d[rt, 1]
            x2 = V.d[rt2, 0]
            x3 = V.d[rt2, 1]
        else:
            x0 = V.d[rt, 0]
            x1 = V.d[rt2, 0]
            x2 = np.int64(0)
            x3 = np.int64(0)
        ok = idx >= 0 or writable(m, st, addr, 2 * n)
        for j in range(k if ok else 0):
            x = x0 if j == 0 else x1 if j == 1 else x2 if j == 2 else x3
            if idx >= 0:
                host_write(m, idx + j * e, e, x)
            else:
                store(m, st, addr + j * e, e, x)
    else:
        x0 = np.int64(0)
        x1 = np.int64(0)
        x2 = np.int64(0)
        x3 = np.int64(0)
        for j in range(k):
            if idx >= 0:
                x = host_read(m, idx + j * e, e)
            else:
                x = load(m, st, addr + j * e, e)
            if j == 0:
                x0 = x
            elif j == 1:
                x1 = x
            elif j == 2:
                x2 = x
            else:
                x3 = x
        ok = st[ST_REASON] == 0
        if not ok:
            pass
        elif v == 0:
            if opc == 1:                                    # LDPSW
                x0 = sextn(x0, 32)
                x1 = sextn(x1, 32)
            if rt != 31:
                R[rt] = x0
            if rt2 != 31:
                R[rt2] = x1
        elif sz == 4:
            V.d[rt, 0] = x0
            V.d[rt, 1] = x1
            V.d[rt2, 0] = x2
            V.d[rt2, 1] = x3
        else:
            V.d[rt, 0] = x0
            V.d[rt, 1] = 0
            V.d[rt2, 0] = x1
            V.d[rt2, 1] = 0
    if not ok:
        return pc
    if op == T.LDSTP_PRE:
        R[rn] = addr
    elif op == T.LDSTP_POST:
        R[rn] = base + imm
    return pc + 4


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


# The exclusives (LDXR/STXR and pairs, LDAR/STLR), CAS, CASP and the LSE atomics run out of
# line (cold_rows): rare in the programs we measure, and long.  One family each, so that a
# program compiles only the ones it runs (glibc's start-up: the exclusives and CAS).
@executes("LDST_EX", cold=True)
def ldst_exclusive(op, w, imm, pc, R, m, st):
    return pc + 4 if _exclusive(m, st, R, w) else pc


@executes("CAS", cold=True)
def compare_and_swap(op, w, imm, pc, R, m, st):
    return pc + 4 if _cas(m, st, R, w) else pc


@executes("CASP", cold=True)
def compare_and_swap_pair(op, w, imm, pc, R, m, st):
    return pc + 4 if _casp(m, st, R, w) else pc


@executes("ATOMIC", cold=True)
def atomic_memory_op(op, w, imm, pc, R, m, st):
    return pc + 4 if _atomic(m, st, R, w) else pc
