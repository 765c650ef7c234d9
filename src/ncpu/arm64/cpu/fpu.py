"""IEEE helpers with ARM semantics for NaNs, fused multiply-add and rounding.

Host arithmetic (numpy float32/float64 in numba) gives IEEE results in
round-to-nearest-even; what differs from ARM is NaN handling: x86 makes a
negative default NaN and picks operands in its own order.  So every result
goes through ARM's rules: signalling NaNs first, then quiet NaNs, in
operand order; an invalid operation yields the default NaN (+, quiet, zero
payload), and FPCR.DN forces the default NaN everywhere.
"""
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

DN_BIT = 1 << 25


@intrinsic
def fma(typingctx, a, b, c):
    """llvm.fma: a*b+c with a single rounding (float32 or float64)."""
    sig = a(a, b, c)

    def codegen(context, builder, signature, args):
        lty = context.get_value_type(signature.return_type)
        fn = builder.module.declare_intrinsic("llvm.fma", [lty], ir.FunctionType(lty, [lty, lty, lty]))
        return builder.call(fn, args)
    return sig, codegen


@njit(cache=True)
def fma32(a, b, c):
    return fma(np.float32(a), np.float32(b), np.float32(c))


@njit(cache=True)
def fma64(a, b, c):
    return fma(np.float64(a), np.float64(b), np.float64(c))


@njit(cache=True)
def is_nan(b, dbl):
    if dbl:
        return (b & 0x7FFFFFFFFFFFFFFF) > 0x7FF0000000000000
    return (b & 0x7FFFFFFF) > 0x7F800000


@njit(cache=True)
def is_snan(b, dbl):
    if dbl:
        return is_nan(b, dbl) and (b & 0x0008000000000000) == 0
    return is_nan(b, dbl) and (b & 0x00400000) == 0


@njit(cache=True)
def quiet(b, dbl):
    return b | (0x0008000000000000 if dbl else 0x00400000)


@njit(cache=True)
def default_nan(dbl):
    return np.int64(0x7FF8000000000000) if dbl else np.int64(0x7FC00000)


@njit(cache=True)
def pick_nan(a, b, c, n, dbl, fpcr):
    """ARM FPProcessNaNs over the first n operands (a, b, c as bit patterns).
    Returns (True, result bits) if some operand is a NaN."""
    found = False
    r = np.int64(0)
    if is_snan(a, dbl):
        found, r = True, a
    elif n > 1 and is_snan(b, dbl):
        found, r = True, b
    elif n > 2 and is_snan(c, dbl):
        found, r = True, c
    elif is_nan(a, dbl):
        found, r = True, a
    elif n > 1 and is_nan(b, dbl):
        found, r = True, b
    elif n > 2 and is_nan(c, dbl):
        found, r = True, c
    if found:
        r = default_nan(dbl) if fpcr & DN_BIT else quiet(r, dbl)
    return found, r


@njit(cache=True)
def round_int(x, mode):
    """Round a float to an integral float: 0 nearest-even, 1 +inf, 2 -inf, 3 zero, 4 nearest-away."""
    if mode == 0:
        return np.rint(x)
    if mode == 1:
        return np.ceil(x)
    if mode == 2:
        return np.floor(x)
    if mode == 3:
        return np.trunc(x)
    t = np.trunc(x)
    if abs(x - t) >= 0.5:
        t += np.sign(x)
    return t


@njit(cache=True)
def to_int(x, mode, bits, unsigned):
    """FCVT*S / FCVT*U: round with `mode`, saturate to the integer range, NaN -> 0."""
    if x != x:
        return np.int64(0)
    r = np.float64(round_int(np.float64(x), mode))
    if unsigned:
        if r <= 0.0:
            return np.int64(0)
        if bits == 32:
            return np.int64(0xFFFFFFFF) if r >= 4294967296.0 else np.int64(r)
        if r >= 18446744073709551616.0:
            return np.int64(-1)
        if r >= 9223372036854775808.0:
            return np.int64(r - 9223372036854775808.0) ^ (np.int64(-1) << 63)
        return np.int64(r)
    if bits == 32:
        if r >= 2147483648.0:
            return np.int64(0x7FFFFFFF)
        if r < -2147483648.0:
            return np.int64(0x80000000)
        return np.int64(r) & 0xFFFFFFFF
    if r >= 9223372036854775808.0:
        return np.int64(0x7FFFFFFFFFFFFFFF)
    if r < -9223372036854775808.0:
        return np.int64(-1) << 63
    return np.int64(r)
