"""SWAR (SIMD within a register): lane arithmetic on a 64-bit half of a vector
register done with whole-word operations, no loop over lanes.

Why: the vector rows gcc's auto-vectoriser puts in hot loops (ADD, SUB, CMEQ,
NEG, ...) are carried inline by the ARM64 loop; computed lane by lane through
a buffer they cost 100-400 ns per instruction, as whole words a few ns.
Lanes are 8 << sz bits (sz 0..3); the top bit of every lane is `tops(sz)`.
Adding without carries between lanes: add the lanes' low bits (which cannot
carry out of a lane) and put each lane's top bit back with an XOR.
"""
import numpy as np

from .int_ops import lsr
from .jit import njit


@njit(cache=True)
def tops(sz):
    """The top bit of every lane of a 64-bit half, lanes of 8 << sz bits."""
    if sz == 0:
        return np.int64(0x0101010101010101) << 7
    if sz == 1:
        return np.int64(0x0001000100010001) << 15
    if sz == 2:
        return np.int64(0x0000000100000001) << 31
    return np.int64(1) << 63


@njit(cache=True)
def lanes_add(x, y, h):
    return ((x & ~h) + (y & ~h)) ^ ((x ^ y) & h)


@njit(cache=True)
def lanes_sub(x, y, h):
    """x - y in every lane: borrows from the top bit, which `x | h` lends, stay inside the lane."""
    return ((x | h) - (y & ~h)) ^ ((x ^ ~y) & h)


@njit(cache=True)
def lanes_eq_zero(x, h, sz):
    """All ones in every lane of x that is zero, zeros elsewhere."""
    nonzero = (((x & ~h) + ~h) | x) & h          # a lane's top bit: set when any bit of the lane is
    zero = ~nonzero & h
    return zero | (zero - lsr(zero, (8 << sz) - 1))


# ---- shifts by an immediate (sh fixed for the whole word) -------------------------------
@njit(cache=True)
def lows(sz):
    """The low bit of every lane; times a lane value, that value in every lane."""
    return lsr(tops(sz), (8 << sz) - 1)


@njit(cache=True)
def lane_ones(sz):
    return np.int64(-1) if sz == 3 else (np.int64(1) << (8 << sz)) - 1


@njit(cache=True)
def lanes_shl(x, sh, sz):
    """x << sh in every lane, 0 <= sh < lane width: the bits that cross into the next lane are cleared."""
    return (x << sh) & (lows(sz) * ((lane_ones(sz) << sh) & lane_ones(sz)))


@njit(cache=True)
def lanes_lsr(x, sh, sz):
    """Logical x >> sh in every lane, 0 <= sh <= lane width (USHR #64 gives 0)."""
    if sh >= (8 << sz):
        return np.int64(0)
    return lsr(x, sh) & (lows(sz) * lsr(lane_ones(sz), sh))


@njit(cache=True)
def lanes_asr(x, sh, sz):
    """Arithmetic x >> sh in every lane, 0 <= sh <= lane width: the logical shift, then
    each lane sign-extended from its new top bit s by (t ^ s) - s, lane by lane."""
    sh = min(sh, (8 << sz) - 1)
    s = lows(sz) * (np.int64(1) << ((8 << sz) - 1 - sh))
    return lanes_sub(lanes_lsr(x, sh, sz) ^ s, s, tops(sz))


# ---- widening and narrowing: 32 bits of lanes <-> 64 bits of lanes twice as wide ----------
@njit(cache=True)
def lanes_widen(x, sz):
    """The lanes (8 << sz bits, sz < 3) of the low 32 bits of x, each zero-extended into
    a lane twice as wide: 64 bits out."""
    x &= 0xFFFFFFFF
    if sz == 2:
        return x
    x = (x | (x << 16)) & 0x0000FFFF0000FFFF
    if sz == 1:
        return x
    return (x | (x << 8)) & 0x00FF00FF00FF00FF


@njit(cache=True)
def lanes_even(x, sz):
    """The even-numbered lanes (8 << sz bits, sz < 3) of x packed into the low 32 bits
    (the inverse of lanes_widen: the low half of every lane twice as wide)."""
    if sz == 2:
        return x & 0xFFFFFFFF
    if sz == 0:
        x &= 0x00FF00FF00FF00FF
        x = (x | lsr(x, 8)) & 0x0000FFFF0000FFFF
    else:
        x &= 0x0000FFFF0000FFFF
    return (x | lsr(x, 16)) & 0xFFFFFFFF


@njit(cache=True)
def lanes_interleave(x, y, sz):
    """The lanes of the low 32 bits of x and y taken in turn, x's first (ZIP)."""
    return lanes_widen(x, sz) | (lanes_widen(y, sz) << (8 << sz))


@njit(cache=True)
def bytes_from(lo, hi, k):
    """Bytes k .. k + 7 of the 16 bytes hi:lo (lo first), 0 <= k < 8 (EXT)."""
    if k == 0:
        return lo
    return lsr(lo, 8 * k) | (hi << (64 - 8 * k))
