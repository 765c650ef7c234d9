"""The NZCV flags: AddWithCarry's and the logical operations' flags, and ConditionHolds.

NZCV is one int64 holding N=8 Z=4 C=2 V=1 (state.NZCV); B.cond, CSEL, CCMP and FCSEL
test a condition on it (cond_holds), ADDS/SUBS/ADCS/ANDS and the compares set it.
"""
import numpy as np

from .int_ops import M32, lsr
from .jit import njit


@njit(cache=True)
def add_with_carry(a, b, c, sf):
    """AddWithCarry: (result, NZCV as N=8 Z=4 C=2 V=1)."""
    if sf:
        # unsigned arithmetic and bit tests only: no signed-overflow reasoning
        # for the optimiser to exploit (a signed a+b+c here gave wrong N for
        # MIN + -1 + 1 once inlined)
        ures = np.uint64(a) + np.uint64(b) + np.uint64(c)
        res = np.int64(ures)
        carry = ures < np.uint64(a) or (c == 1 and ures == np.uint64(a))
        v = (lsr((a ^ res) & (b ^ res), 63)) != 0
        n = lsr(res, 63) != 0
    else:
        a &= M32
        b &= M32
        s = a + b + c
        res = s & M32
        carry = (s >> 32) != 0
        v = (((a ^ res) & (b ^ res)) >> 31) & 1 != 0
        n = (res >> 31) & 1 != 0
    return res, (n << 3) | ((res == 0) << 2) | (carry << 1) | np.int64(v)


@njit(cache=True)
def logic_flags(res, sf):
    if not sf:
        res &= M32
        n = (res >> 31) & 1
    else:
        n = np.int64(res < 0)
    return (n << 3) | (np.int64(res == 0) << 2)


def _cond_definition(nzcv, cond):
    """ConditionHolds of the Arm ARM, on the 4-bit NZCV value (used to build the table below)."""
    n = (nzcv >> 3) & 1
    z = (nzcv >> 2) & 1
    c = (nzcv >> 1) & 1
    v = nzcv & 1
    b = cond >> 1
    if b == 0:
        r = z == 1
    elif b == 1:
        r = c == 1
    elif b == 2:
        r = n == 1
    elif b == 3:
        r = v == 1
    elif b == 4:
        r = c == 1 and z == 0
    elif b == 5:
        r = n == v
    elif b == 6:
        r = n == v and z == 0
    else:
        return True
    if cond & 1:
        return not r
    return r


# Bit f of COND_MASKS[cond]: does cond hold with NZCV = f.  A lookup instead of the
# branches: B.cond, CSEL and CCMP test a condition on every run, and the loop
# inlines this (inline="always": a call costs more than the test).
COND_MASKS = np.array([sum(1 << f for f in range(16) if _cond_definition(f, c)) for c in range(16)], np.int64)


@njit(cache=True, inline="always")
def cond_holds(nzcv, cond):
    return ((COND_MASKS[cond & 15] >> (nzcv & 15)) & 1) != 0
