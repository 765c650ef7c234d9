"""Integer helpers shared by the executors (all int64, two's complement wrap).

Registers are int64 inside the compiled code; "unsigned" operations go
through the helpers below.  Never mix uint64 and int64 in numba arithmetic
(the result would be float64): the helpers convert explicitly.
"""
import numpy as np
from numba import njit

M32 = 0xFFFFFFFF
MIN64 = -(1 << 63)


@njit(cache=True)
def lsr(x, s):
    """Logical shift right of a 64-bit value, 0 <= s < 64."""
    if s == 0:
        return x
    return (x >> s) & ((np.int64(1) << (64 - s)) - 1)


@njit(cache=True)
def sext32(x):
    x &= M32
    return (x ^ 0x80000000) - 0x80000000


@njit(cache=True)
def sextn(x, n):
    m = np.int64(1) << (n - 1)
    x &= (m << 1) - 1
    return (x ^ m) - m


@njit(cache=True)
def ult(a, b):
    """Unsigned a < b."""
    return (a ^ MIN64) < (b ^ MIN64)


@njit(cache=True)
def ror64(x, r):
    r &= 63
    if r == 0:
        return x
    return lsr(x, r) | (x << (64 - r))


@njit(cache=True)
def ror32(x, r):
    r &= 31
    x &= M32
    if r == 0:
        return x
    return ((x >> r) | (x << (32 - r))) & M32


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


@njit(cache=True)
def shift_reg(x, typ, amt, sf):
    """The shifted-register operand (LSL, LSR, ASR, ROR)."""
    if not sf:
        x &= M32
    if amt == 0:
        return x
    if typ == 0:
        r = x << amt
    elif typ == 1:
        r = lsr(x, amt)
    elif typ == 2:
        r = (x if sf else sext32(x)) >> amt
    else:
        r = ror64(x, amt) if sf else ror32(x, amt)
    return r if sf else r & M32


@njit(cache=True, inline="always")
def extend_reg(x, option, shift):
    """The extended-register operand: UXTB..SXTX then LSL #shift."""
    t = option & 3
    if t == 0:
        x &= 0xFF
    elif t == 1:
        x &= 0xFFFF
    elif t == 2:
        x &= M32
    if option >= 4:
        if t == 0:
            x = (x ^ 0x80) - 0x80
        elif t == 1:
            x = (x ^ 0x8000) - 0x8000
        elif t == 2:
            x = (x ^ 0x80000000) - 0x80000000
    return x << shift


@njit(cache=True)
def clz64(x):
    if x == 0:
        return 64
    n = 0
    if lsr(x, 32) == 0:
        n += 32
        x <<= 32
    if lsr(x, 48) == 0:
        n += 16
        x <<= 16
    if lsr(x, 56) == 0:
        n += 8
        x <<= 8
    if lsr(x, 60) == 0:
        n += 4
        x <<= 4
    if lsr(x, 62) == 0:
        n += 2
        x <<= 2
    if x >= 0:
        n += 1
    return n


@njit(cache=True)
def rbit64(x):
    r = np.int64(0)
    for i in range(64):
        r = (r << 1) | ((x >> i) & 1)
    return r


@njit(cache=True)
def bswap64(x):
    r = np.int64(0)
    for i in range(8):
        r = (r << 8) | ((x >> (8 * i)) & 0xFF)
    return r


@njit(cache=True)
def umulh(a, b):
    ua = np.uint64(a)
    ub = np.uint64(b)
    m = np.uint64(0xFFFFFFFF)
    s = np.uint64(32)
    al, ah, bl, bh = ua & m, ua >> s, ub & m, ub >> s
    ll, lh, hl, hh = al * bl, al * bh, ah * bl, ah * bh
    mid = (ll >> s) + (lh & m) + (hl & m)
    return np.int64(hh + (lh >> s) + (hl >> s) + (mid >> s))


@njit(cache=True)
def smulh(a, b):
    h = umulh(a, b)
    if a < 0:
        h -= b
    if b < 0:
        h -= a
    return h


@njit(cache=True)
def udiv64(a, b):
    if b == 0:
        return np.int64(0)
    return np.int64(np.uint64(a) // np.uint64(b))


@njit(cache=True)
def sdiv64(a, b):
    if b == 0:
        return np.int64(0)
    ua = np.uint64(a) if a >= 0 else np.uint64(-a)
    ub = np.uint64(b) if b >= 0 else np.uint64(-b)
    q = np.int64(ua // ub)
    return -q if (a < 0) != (b < 0) else q
