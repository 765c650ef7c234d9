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
from numba import njit

from .alu import lsr


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
