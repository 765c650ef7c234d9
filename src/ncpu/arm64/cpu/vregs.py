"""Typed views of the SIMD&FP register file for compiled code.

One uint64[32, 2] array (CpuState.v) seen as lanes of every width, so an
executor indexes the lane it needs without bit fiddling; and `tmp`, 16 int64
lanes of scratch where a SIMD executor collects its result before writing it
(the destination may also be a source).  The scratch is not state: nothing
reads it before writing it, and no executor that fills it calls another that
does.  It replaced an `np.empty` per instruction, whose heap allocation also
made loading any such executor from the cache import numba's array module
(about 20 ms of a start-up).
"""
from collections import namedtuple

import numpy as np

from .jit import njit

VR = namedtuple("VR", "d b h s f32 f64 tmp")


def vr_views(v: np.ndarray) -> VR:
    return VR(v.view(np.int64), v.view(np.uint8), v.view(np.uint16), v.view(np.uint32),
              v.view(np.float32), v.view(np.float64), np.empty(16, np.int64))


@njit(cache=True)
def lane(V, r, sz, i):
    """Zero-extended lane i of width 8 << sz bits of register r."""
    if sz == 0:
        return np.int64(V.b[r, i])
    if sz == 1:
        return np.int64(V.h[r, i])
    if sz == 2:
        return np.int64(V.s[r, i])
    return V.d[r, i]


@njit(cache=True)
def set_lane(V, r, sz, i, x):
    if sz == 0:
        V.b[r, i] = x & 0xFF
    elif sz == 1:
        V.h[r, i] = x & 0xFFFF
    elif sz == 2:
        V.s[r, i] = x & 0xFFFFFFFF
    else:
        V.d[r, i] = x


@njit(cache=True)
def set_scalar(V, r, sz, x):
    """Write an 8/16/32/64-bit scalar into the low lane, zeroing the rest."""
    V.d[r, 0] = 0
    V.d[r, 1] = 0
    set_lane(V, r, sz, 0, x)


@njit(cache=True)
def write_lanes(V, rd, sz, res, n, q):
    """Write n lanes from res; zero the upper half when q == 0 (64-bit forms)."""
    for i in range(n):
        set_lane(V, rd, sz, i, res[i])
    if not q:
        V.d[rd, 1] = 0


@njit(cache=True)
def write_narrow(V, rd, sz, res, cnt, q):
    """Write the cnt lanes of a narrowing op (a 64-bit half): into the low half,
    zeroing the upper one (q == 0), or into the upper half, keeping the low one
    (q == 1, the "2" forms such as XTN2)."""
    for i in range(cnt):
        set_lane(V, rd, sz, (cnt if q else 0) + i, res[i])
    if not q:
        V.d[rd, 1] = 0
