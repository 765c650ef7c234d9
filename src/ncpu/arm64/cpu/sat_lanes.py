"""Exact lane arithmetic for the saturating and rounding integer SIMD ops.

A lane result is computed exactly and only then saturated or truncated.
The exact result of a 64-bit lane can need up to 66 bits (UQADD of two
2**64 - 1, SQSHL by 63, ...), and numba has no int128, so exact values
travel as a "wide" pair (hi, lo): the value hi * 2**64 + unsigned(lo).
Narrower lanes arrive sign- or zero-extended to int64; their results fit
in lo and hi is just its extension.  `signed` says how a 64-bit pattern
is read: two's complement, or unsigned (then hi is 0).
"""
import numpy as np

from .int_ops import lsr, sextn, ult
from .jit import njit

MAX64 = np.int64(0x7FFFFFFFFFFFFFFF)
MIN64 = np.int64(-MAX64 - 1)


@njit(cache=True)
def sx(x, esize, signed):
    """A zero-extended esize-bit lane as the int64 its signedness means."""
    return sextn(x, esize) if signed and esize < 64 else x


@njit(cache=True)
def hi_of(x, signed):
    """The hi word of x read as a 64-bit signed or unsigned value."""
    return (x >> 63) if signed else np.int64(0)


@njit(cache=True)
def add_wide(a, a_signed, b, b_signed):
    lo = a + b
    return hi_of(a, a_signed) + hi_of(b, b_signed) + (1 if ult(lo, a) else 0), lo


@njit(cache=True)
def sub_wide(a, a_signed, b, b_signed):
    lo = a - b
    return hi_of(a, a_signed) - hi_of(b, b_signed) - (1 if ult(a, b) else 0), lo


@njit(cache=True)
def shl_wide(x, s, signed):
    """x * 2**s for any s >= 0 (SQSHL by register may shift by up to 127)."""
    if s == 0:
        return hi_of(x, signed), x
    if s >= 64:
        # Only whether the value is zero, and its sign, matter: it saturates otherwise.
        if x == 0:
            return np.int64(0), np.int64(0)
        return (np.int64(-1) if signed and x < 0 else np.int64(1)), np.int64(0)
    return (x >> (64 - s)) if signed else lsr(x, 64 - s), x << s


@njit(cache=True)
def shr(x, s, signed):
    """floor(x / 2**s) for s >= 0; fits in 64 bits."""
    if signed:
        return x >> min(s, 63)
    return lsr(x, s) if s < 64 else np.int64(0)


@njit(cache=True)
def rshr(x, s, signed):
    """Rounding shift right, floor((x + 2**(s-1)) / 2**s) for s >= 1, without
    forming the sum (it can overflow): the floor plus the last bit shifted out."""
    if signed:
        return (x >> min(s, 63)) + ((x >> min(s - 1, 63)) & 1)   # past bit 63: the sign bit
    return shr(x, s, False) + ((lsr(x, s - 1) & 1) if s <= 64 else 0)


@njit(cache=True)
def sat(hi, lo, esize, signed):
    """Saturate the wide value (hi, lo) to an esize-bit lane: (value, saturated)."""
    if signed:
        mx = MAX64 if esize == 64 else (np.int64(1) << (esize - 1)) - 1
        mn = -mx - 1
        if hi != (lo >> 63):                         # outside int64 altogether
            return (mx if hi >= 0 else mn), True
        if lo > mx:
            return mx, True
        if lo < mn:
            return mn, True
        return lo, False
    umax = np.int64(-1) if esize == 64 else (np.int64(1) << esize) - 1
    if hi < 0:
        return np.int64(0), True
    if hi > 0:
        return umax, True
    if esize < 64 and (lo < 0 or lo > umax):         # lo < 0: 2**63 or more
        return umax, True
    return lo, False


@njit(cache=True)
def doubling_mul_high(a, b, esize, rnd):
    """SQDMULH / SQRDMULH of two signed esize-bit values (esize 16 or 32):
    (2ab + rnd * 2**(esize-1)) >> esize, computed as (ab + ...) >> (esize-1)
    so that 2ab (up to 2**63) is never formed."""
    p = a * b + (rnd << (esize - 2))
    r = p >> (esize - 1)
    return sat(r >> 63, r, esize, True)


@njit(cache=True)
def doubling_mul_long(a, b, d, esize2, acc):
    """SQDMULL (acc 0), SQDMLAL (+1), SQDMLSL (-1): d -/+ sat(2ab), both steps
    saturating to the esize2-bit result lane; d is that lane zero-extended."""
    hi, lo = shl_wide(a * b, 1, True)
    p, s1 = sat(hi, lo, esize2, True)
    if acc == 0:
        return p, s1
    d = sx(d, esize2, True)
    if acc > 0:
        hi, lo = add_wide(d, True, p, True)
    else:
        hi, lo = sub_wide(d, True, p, True)
    r, s2 = sat(hi, lo, esize2, True)
    return r, s1 or s2
