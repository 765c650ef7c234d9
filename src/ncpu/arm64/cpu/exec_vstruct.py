"""Executor families of the vector structure loads and stores (decode_table._vstruct_rows:
one row per form): LD1-LD4/ST1-ST4 of whole registers (LD1/ST1 consecutive, LD2-LD4/ST2-ST4
interleaved element by element), of one lane, and LD1R-LD4R (each element into every lane).

They run out of line (cold=True): cold_rows' cold_vstruct_multiple and _single call them, with the memory arrays it
receives by address from the loop (calls.pointer_to).  A structure that lies inside one
mapped page is copied byte by byte between the backing store and the registers' bytes (V.b:
lanes are little-endian, like the guest's memory), with no call per element (a call that
takes the memory arrays copies them: measured, 60 ns per element of LD4 through calls);
otherwise every element goes through guest_access.load/store, after a check that finds a fault before
any register or byte changes (the instruction restarts after the fault is resolved, as every
load and store does).
"""
import re

import numpy as np

from . import decode_table as T
from .decoder import fld
from .exec_mem import host_index
from .guest_access import load, store, writable
from .jit import njit
from .stops import ST_REASON
from .rows import executes
from .vregs import lane, set_lane

# Each row's form by op id, from its name: registers (or elements) n, load or store,
# post-indexed, and the kind.
VS_CONSECUTIVE, VS_INTERLEAVED, VS_LANE, VS_REPLICATE = 1, 2, 3, 4
_VS = re.compile(r"(LD|ST)(\d)(_m(\d)?|_e|R)(_POST)?$")


def _form(name):
    m = _VS.match(name)
    if m is None:
        return 0, 0, 0, 0
    ld, n, kind, post = m.group(1) == "LD", int(m.group(2)), m.group(3), m.group(5) is not None
    if kind.startswith("_m"):
        return (VS_CONSECUTIVE, int(kind[2:]), ld, post) if n == 1 else (VS_INTERLEAVED, n, ld, post)
    return (VS_LANE if kind == "_e" else VS_REPLICATE), n, ld, post


_FORMS = [_form(e.name) for e in T.TABLE]
VS_KIND = np.array([f[0] for f in _FORMS], np.int64)
VS_N = np.array([f[1] for f in _FORMS], np.int64)
VS_LOAD = np.array([f[2] for f in _FORMS], np.bool_)
VS_POST = np.array([f[3] for f in _FORMS], np.bool_)


def _rows(*kinds):
    return [e.name for e, f in zip(T.TABLE, _FORMS) if f[0] in kinds]


@njit(cache=True)
def _readable(m, st, addr, total, e):
    """Load [addr, addr + total) in e-byte elements, in order, for the fault alone: the
    first element that faults is recorded, as the loads themselves would record it."""
    for off in range(0, total, e):
        load(m, st, addr + off, e)
    return st[ST_REASON] == 0


@executes(*_rows(VS_CONSECUTIVE, VS_INTERLEAVED), cold=True)
def vstruct_multiple(op, w, imm, pc, R, V, m, st):
    """LD1-LD4/ST1-ST4 (multiple structures): n registers of Q's width; LD1/ST1 move them
    whole (consecutive doublewords), LD2-LD4/ST2-ST4 element by element, interleaved
    (element i of register r at (n * i + r) * esize)."""
    q = fld(op, w, T.FLD_Q)
    rn = fld(op, w, T.FLD_RN)
    rt = fld(op, w, T.FLD_VT)
    nregs = VS_N[op]
    nbytes = 16 if q else 8
    total = nregs * nbytes
    addr = R[rn]
    interleaved = VS_KIND[op] == VS_INTERLEAVED
    esz = fld(op, w, T.FLD_SIZE) if interleaved else 3        # log2 of the element size
    e = np.int64(1) << esz
    lanes = nbytes >> esz
    if VS_LOAD[op]:
        idx = host_index(m, addr, total, 1)
        if idx < 0 and not _readable(m, st, addr, total, e):
            return pc
        for r in range(nregs):
            rr = (rt + r) & 31
            if not q:
                V.d[rr, 1] = 0
            for i in range(lanes):
                off = (nregs * i + r) << esz if interleaved else r * nbytes + (i << esz)
                if idx >= 0:
                    for k in range(e):
                        V.b[rr, (i << esz) + k] = m.data[idx + off + k]
                else:
                    set_lane(V, rr, esz, i, load(m, st, addr + off, e))
    else:
        idx = host_index(m, addr, total, 2)
        if idx < 0 and not writable(m, st, addr, total):
            return pc
        for r in range(nregs):
            rr = (rt + r) & 31
            for i in range(lanes):
                off = (nregs * i + r) << esz if interleaved else r * nbytes + (i << esz)
                if idx >= 0:
                    for k in range(e):
                        m.data[idx + off + k] = V.b[rr, (i << esz) + k]
                else:
                    store(m, st, addr + off, e, lane(V, rr, esz, i))
    if VS_POST[op]:
        rm = fld(op, w, T.FLD_RM)
        R[rn] = addr + (total if rm == 31 else R[rm])
    return pc + 4


@executes(*_rows(VS_LANE, VS_REPLICATE), cold=True)
def vstruct_single(op, w, imm, pc, R, V, m, st):
    """LD1-LD4/ST1-ST4 of one lane (n consecutive elements, element k into lane idx of
    register Vt + k) and LD1R-LD4R (element k into every lane of Vt + k)."""
    q = fld(op, w, T.FLD_Q)
    size = fld(op, w, T.FLD_SIZE)
    rn = fld(op, w, T.FLD_RN)
    rt = fld(op, w, T.FLD_VT)
    n = VS_N[op]
    addr = R[rn]
    replicate = VS_KIND[op] == VS_REPLICATE
    sz = size                                       # log2 of the element size, and the lane
    at = 0
    if not replicate:
        sc = fld(op, w, T.FLD_SC)
        s = fld(op, w, T.FLD_S)
        if sc == 0:
            sz, at = 0, (q << 3) | (s << 2) | size
        elif sc == 1:
            sz, at = 1, (q << 2) | (s << 1) | (size >> 1)
        elif size == 0:
            sz, at = 2, (q << 1) | s
        else:
            sz, at = 3, q
    e = np.int64(1) << sz
    total = n << sz
    if VS_LOAD[op]:
        idx = host_index(m, addr, total, 1)
        if idx < 0 and not _readable(m, st, addr, total, e):
            return pc
        for k in range(n):
            rr = (rt + k) & 31
            if replicate and not q:
                V.d[rr, 1] = 0
            for i in range((16 if q else 8) >> sz if replicate else 1):
                lane_at = i if replicate else at
                if idx >= 0:
                    for j in range(e):
                        V.b[rr, (lane_at << sz) + j] = m.data[idx + (k << sz) + j]
                else:
                    set_lane(V, rr, sz, lane_at, load(m, st, addr + (k << sz), e))
    else:
        idx = host_index(m, addr, total, 2)
        if idx < 0 and not writable(m, st, addr, total):
            return pc
        for k in range(n):
            rr = (rt + k) & 31
            if idx >= 0:
                for j in range(e):
                    m.data[idx + (k << sz) + j] = V.b[rr, (at << sz) + j]
            else:
                store(m, st, addr + (k << sz), e, lane(V, rr, sz, at))
    if VS_POST[op]:
        rm = fld(op, w, T.FLD_RM)
        R[rn] = addr + (total if rm == 31 else R[rm])
    return pc + 4
