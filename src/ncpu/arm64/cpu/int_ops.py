"""Integer operations on the int64 registers, shared by the executors: shifts and
rotates, sign extension, the shifted and extended register operands, bit counts,
reversal and byte swaps, multiply-high and division (the flags: nzcv.py).

All int64 with two's complement wrap.

Registers are int64 inside the compiled code; "unsigned" operations go
through the helpers below.  Never mix uint64 and int64 in numba arithmetic
(the result would be float64): the helpers convert explicitly.
"""
import numpy as np

from .jit import njit

M32 = 0xFFFFFFFF
MIN64 = -(1 << 63)


@njit(cache=True)
def lsr(x, s):
    """Logical shift right of a 64-bit value, 0 <= s < 64."""
    if s == 0:
        return x
    return (x >> s) & ((np.int64(1) << (64 - s)) - 1)


@njit(cache=True)
def sextn(x, n):
    """The low n bits of x (1 <= n <= 64) as a signed number: the one sign extension of
    the ARM64 package.

    Written with a plain `1`, not np.int64(1), so that the Python function
    (`sextn.py_func`) is exact on Python ints as well: the disassembler, CpuState and the
    syscall layer call that.  Compiled, the literal is an int64 all the same, and a call
    with a constant n is inlined and folded by LLVM into the one instruction a
    specialised form would give (`sextn(x, 32)`: movsxd, checked on numba's assembly),
    so the hot loop needs no form of its own."""
    m = 1 << (n - 1)
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
        r = (x if sf else sextn(x, 32)) >> amt
    else:
        r = ror64(x, amt) if sf else ror32(x, amt)
    return r if sf else r & M32


@njit(cache=True, inline="always")
def extend_reg(x, option, shift):
    """The extended-register operand: UXTB..SXTX then LSL #shift."""
    t = option & 3
    if t < 3:                               # UXTX/SXTX (t = 3): the whole register
        n = 8 << t
        x = sextn(x, n) if option >= 4 else x & ((1 << n) - 1)
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
