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
from numba import types
from numba.extending import intrinsic

from .jit import njit
from .int_ops import sextn

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


# ---- lane-level operations on bit patterns (shared by scalar FP and AdvSIMD) ----
# Single precision is computed in double and rounded once to single: for
# + - * / and sqrt that double rounding is exact (53 >= 2*24 + 2), so the
# result equals a correctly rounded single-precision operation.

@intrinsic
def i64_as_f64(typingctx, x):
    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], ir.DoubleType())
    return types.float64(types.int64), codegen


@intrinsic
def f64_as_i64(typingctx, x):
    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], ir.IntType(64))
    return types.int64(types.float64), codegen


@intrinsic
def i32_as_f32(typingctx, x):
    def codegen(context, builder, sig, args):
        return builder.bitcast(builder.trunc(args[0], ir.IntType(32)), ir.FloatType())
    return types.float32(types.int64), codegen


@intrinsic
def f32_as_i32(typingctx, x):
    def codegen(context, builder, sig, args):
        return builder.zext(builder.bitcast(args[0], ir.IntType(32)), ir.IntType(64))
    return types.int64(types.float32), codegen


@njit(cache=True)
def fval(b, dbl):
    """float64 value of a single or double bit pattern."""
    return i64_as_f64(b) if dbl else np.float64(i32_as_f32(b))


@njit(cache=True)
def fbits(x, dbl):
    """Bit pattern of x (rounded to single when not dbl); a NaN becomes the default NaN."""
    if x != x:
        return default_nan(dbl)
    return f64_as_i64(x) if dbl else f32_as_i32(np.float32(x))


@njit(cache=True)
def half_to_single(h):
    """The half-precision bit pattern h as a single-precision one with the same value,
    exactly: a subnormal half becomes a normal single, and a NaN keeps its sign, its
    payload (shifted to the top of the fraction) and whether it signals, so that
    pick_nan then quietens it as FPConvertNaN would (FMLAL: FPProcessNaNs3H)."""
    sign = (h >> 15) & 1
    exp = (h >> 10) & 0x1F
    frac = h & 0x3FF
    if exp == 0x1F:                                  # infinity or NaN
        exp = 0xFF
    elif exp == 0:
        if frac != 0:                                # subnormal: frac * 2^-24, normalised
            exp = 113
            while frac & 0x400 == 0:
                frac <<= 1
                exp -= 1
            frac &= 0x3FF
    else:
        exp += 127 - 15
    return np.int64(sign << 31 | exp << 23 | frac << 13)


K_ADD, K_SUB, K_MUL, K_DIV, K_MAX, K_MIN, K_MAXNM, K_MINNM, K_ABD, K_MULX = range(10)


@njit(cache=True, error_model="numpy")
def fp_binop(kind, ab, bb, dbl, fpcr):
    """ARM two-operand FP arithmetic on bit patterns (NaN rules of FPProcessNaNs)."""
    if kind == K_MAXNM or kind == K_MINNM:
        an, bn = is_nan(ab, dbl), is_nan(bb, dbl)
        if an and not bn and not is_snan(ab, dbl):
            ab = bb
        elif bn and not an and not is_snan(bb, dbl):
            bb = ab
    nan, r = pick_nan(ab, bb, 0, 2, dbl, fpcr)
    if nan:
        if kind == K_ABD:                           # FABD is FPAbs(FPSub(..)): even of a NaN
            return r & (np.int64(0x7FFFFFFFFFFFFFFF) if dbl else np.int64(0x7FFFFFFF))
        return r
    a = fval(ab, dbl)
    b = fval(bb, dbl)
    if kind == K_ADD:
        return fbits(a + b, dbl)
    if kind == K_SUB:
        return fbits(a - b, dbl)
    if kind == K_MUL:
        return fbits(a * b, dbl)
    if kind == K_MULX:
        if (a == 0 and np.isinf(b)) or (b == 0 and np.isinf(a)):
            neg = (a < 0 or (a == 0 and ab != 0 and (ab >> (63 if dbl else 31)) & 1)) != \
                  (b < 0 or (b == 0 and bb != 0 and (bb >> (63 if dbl else 31)) & 1))
            return fbits(-2.0 if neg else 2.0, dbl)
        return fbits(a * b, dbl)
    if kind == K_DIV:
        return fbits(a / b, dbl)
    if kind == K_ABD:
        r = a - b
        return fbits(r, dbl) & (np.int64(0x7FFFFFFFFFFFFFFF) if dbl else np.int64(0x7FFFFFFF))
    is_max = kind == K_MAX or kind == K_MAXNM
    if a == b:
        return (ab & bb) if is_max else (ab | bb)
    return ab if (a > b) == is_max else bb


@njit(cache=True)
def inf_times_zero(ab, bb, dbl):
    """a*b is inf*0 or 0*inf (bit patterns; false when either is a NaN)."""
    mag = np.int64(0x7FFFFFFFFFFFFFFF) if dbl else np.int64(0x7FFFFFFF)
    inf = np.int64(0x7FF0000000000000) if dbl else np.int64(0x7F800000)
    am, bm = ab & mag, bb & mag
    return (am == inf and bm == 0) or (am == 0 and bm == inf)


@njit(cache=True)
def fma_nan(ab, bb, cb, dbl, fpcr):
    """ARM FPMulAdd NaN result of c + a*b: (True, bits) if some operand is a NaN.
    NaNs are picked in the order c, a, b; a quiet-NaN addend with inf*0 is an
    invalid operation (default NaN), but a signalling one is still propagated."""
    nan, r = pick_nan(cb, ab, bb, 3, dbl, fpcr)
    if nan and is_nan(cb, dbl) and not is_snan(cb, dbl) and inf_times_zero(ab, bb, dbl):
        r = default_nan(dbl)
    return nan, r


@njit(cache=True)
def fp_fma(ab, bb, cb, dbl, fpcr):
    """c + a*b with one rounding; ARM NaN rules (fma_nan)."""
    nan, r = fma_nan(ab, bb, cb, dbl, fpcr)
    if nan:
        return r
    if dbl:
        return fbits(fma64(i64_as_f64(ab), i64_as_f64(bb), i64_as_f64(cb)), True)
    x = fma32(i32_as_f32(ab), i32_as_f32(bb), i32_as_f32(cb))
    return default_nan(False) if x != x else f32_as_i32(x)


@njit(cache=True)
def fp_compare(kind, ab, bb, dbl):
    """0 EQ, 1 GE, 2 GT, 3 |a|>=|b|, 4 |a|>|b|; false when unordered."""
    a, b = fval(ab, dbl), fval(bb, dbl)
    if kind >= 3:
        a, b = abs(a), abs(b)
    if kind == 0:
        return a == b
    if kind == 1 or kind == 3:
        return a >= b
    return a > b


@njit(cache=True)
def fp_round(ab, dbl, mode, fpcr):
    """FRINT* on a bit pattern (mode as round_int)."""
    nan, r = pick_nan(ab, 0, 0, 1, dbl, fpcr)
    if nan:
        return r
    x = fval(ab, dbl)
    y = round_int(x, mode)
    if y == 0:                 # keep the sign of the input
        return ab & ((np.int64(1) << 63) if dbl else np.int64(0x80000000))
    return fbits(y, dbl)


@njit(cache=True)
def fp_sqrt(ab, dbl, fpcr):
    nan, r = pick_nan(ab, 0, 0, 1, dbl, fpcr)
    if nan:
        return r
    x = fval(ab, dbl)
    if x == 0:
        return ab
    if x < 0:
        return default_nan(dbl)
    return fbits(np.sqrt(x), dbl)


@njit(cache=True)
def fp_to_fixed(ab, dbl, mode, width, unsigned, fracbits):
    """FCVT[NPMZA][SU] with an optional number of fraction bits (fixed point)."""
    x = fval(ab, dbl)
    if fracbits:
        x = x * np.float64(2.0) ** fracbits
    r = to_int(x, mode, 64 if width == 64 else 32, unsigned)
    if width < 32:
        return r
    return r


@njit(cache=True)
def fixed_to_fp(x, width, unsigned, fracbits, dbl):
    """[SU]CVTF of a width-bit integer (x holds its bits) with fracbits fraction bits."""
    if width == 32:
        x = (x & 0xFFFFFFFF) if unsigned else sextn(x, 32)
    if fracbits == 0:
        if unsigned and width == 64:
            return f64_as_i64(np.float64(np.uint64(x))) if dbl else f32_as_i32(np.float32(np.uint64(x)))
        return f64_as_i64(np.float64(x)) if dbl else f32_as_i32(np.float32(x))
    # with fraction bits: convert exactly-scaled (int -> float rounds once, the
    # power-of-two scale is exact unless the result is subnormal)
    if unsigned and width == 64:
        if dbl:
            return fbits(np.float64(np.uint64(x)) / np.float64(2.0) ** fracbits, True)
        return f32_as_i32(np.float32(np.float32(np.uint64(x)) / np.float32(2.0) ** fracbits))
    if dbl:
        return fbits(np.float64(x) / np.float64(2.0) ** fracbits, True)
    return f32_as_i32(np.float32(np.float32(x) / np.float32(2.0) ** fracbits))


# ---- FPSR cumulative exception flags -----------------------------------------
# Computed after the fact from operands and the (round-to-nearest) result:
# exactness by error-free transformations (TwoSum, fma residuals; single
# precision checked exactly in double).  IDC needs FPCR.FZ, not modelled.
IOC, DZC, OFC, UFC, IXC, IDC = 1, 2, 4, 8, 16, 128
FPSR_FLAGS = IOC | DZC | OFC | UFC | IXC | IDC


@njit(cache=True)
def result_flags(r, inexact, dbl):
    """IXC, plus UFC when the inexact result is tiny (below the smallest normal)."""
    if not inexact:
        return 0
    if abs(np.float64(r)) < (2.2250738585072014e-308 if dbl else 1.1754943508222875e-38):
        return IXC | UFC
    return IXC


MIN_NORMAL64, MIN_NORMAL32 = 2.2250738585072014e-308, 1.1754943508222875e-38


@njit(cache=True, inline="always")
def flags_settled(fpsr, r, dbl):
    """Can arith_flags/fma_flags of result r add nothing to fpsr?  Yes when IXC is already
    set (it is sticky) and r is a normal finite number: then no NaN came out (IOC), no
    infinity (DZC, OFC) and no tiny result (UFC), so those functions return IXC or 0.
    The hot FP rows skip the inexactness test then (it was a fifth of an FP-heavy run)."""
    a = abs(np.float64(r))
    return (fpsr & IXC) != 0 and a >= (MIN_NORMAL64 if dbl else MIN_NORMAL32) and a < np.inf


@njit(cache=True, error_model="numpy")
def arith_flags(kind, a, b, r, dbl):
    """Flags of r = a (K_ADD|K_SUB|K_MUL|K_DIV) b; a, b, r of one float type, a and b not NaN."""
    if r != r:
        return IOC
    if kind == K_DIV and b == 0:
        return 0 if np.isinf(a) else DZC
    if np.isinf(r):
        return 0 if np.isinf(a) or np.isinf(b) else OFC | IXC
    if np.isinf(a) or np.isinf(b):                   # x/inf, finite result from an infinity: exact
        return 0
    if kind == K_ADD or kind == K_SUB:
        c = b if kind == K_ADD else -b
        bv = r - a                                   # TwoSum: error of a + c
        av = r - bv
        inexact = ((a - av) + (c - bv)) != 0
    elif kind == K_DIV:
        if dbl:
            if r == 0 and a != 0:
                inexact = True                               # a nonzero quotient lost entirely
            elif (abs(np.float64(r)) < 1e-290 or abs(np.float64(a)) < 1e-250) and a != 0:   # scaled by 2**200
                a2 = np.float64(a) * 1.6069380442589903e+60
                q2 = a2 / np.float64(b)
                inexact = fma(q2, np.float64(b), -a2) != 0 or np.float64(r) * 1.6069380442589903e+60 != q2
            else:
                inexact = fma(r, b, -a) != 0
        else:
            inexact = np.float64(r) * np.float64(b) != np.float64(a)
    else:
        if dbl:
            if r == 0 and a != 0 and b != 0:
                inexact = True                               # a nonzero product lost entirely
            elif abs(np.float64(r)) < 1e-290 and a != 0 and b != 0:   # tiny product: scaled by 2**200
                a2 = np.float64(a) * 1.6069380442589903e+60
                p2 = a2 * np.float64(b)
                inexact = fma(a2, np.float64(b), -p2) != 0 or np.float64(r) * 1.6069380442589903e+60 != p2
            else:
                inexact = fma(a, b, -r) != 0
        else:
            inexact = np.float64(a) * np.float64(b) != np.float64(r)
    return result_flags(r, inexact, dbl)


@njit(cache=True, error_model="numpy")
def fma_flags(a, b, c, r, dbl):
    """Flags of r = a*b + c (one rounding); no NaN operands."""
    if r != r:
        return IOC
    if np.isinf(r):
        return 0 if np.isinf(a) or np.isinf(b) or np.isinf(c) else OFC | IXC
    if dbl:
        aa, bb, cc, rr = np.float64(a), np.float64(b), np.float64(c), np.float64(r)
        if aa != 0 and bb != 0 and abs(aa * bb) < 1e-290:
            if abs(cc) > 1e-200:                     # a tiny nonzero product lost against c
                return result_flags(r, True, dbl)
            aa *= 1.6069380442589903e+60             # scale everything by 2**200
            cc *= 1.6069380442589903e+60
            if abs(aa * bb) < 1e-290:                # still lost: c + (nonzero tiny) is inexact
                return result_flags(r, True, dbl)
            r2 = fma(aa, bb, cc)
            if rr * 1.6069380442589903e+60 != r2:
                return result_flags(r, True, dbl)
            rr = r2
        p = aa * bb
        pe = fma(aa, bb, -p)
        s = p + cc
        bv = s - p
        e = (p - (s - bv)) + (cc - bv)
        inexact = ((s - rr) + e) + pe != 0
    else:
        p = np.float64(a) * np.float64(b)           # exact
        cc = np.float64(c)
        s = p + cc
        bv = s - p
        e = (p - (s - bv)) + (cc - bv)
        inexact = e != 0 or s != np.float64(r)
    return result_flags(r, inexact, dbl)


@njit(cache=True, error_model="numpy")
def sqrt_flags(a, r, dbl):
    if r != r:
        return IOC
    if a == 0 or np.isinf(a):
        return 0
    if dbl:
        if a < 1e-250:                                # tiny: the residual would underflow; scale by 2**200
            a2 = np.float64(a) * 1.6069380442589903e+60
            r2 = np.sqrt(a2)
            return IXC if fma(r2, r2, -a2) != 0 else 0
        return IXC if fma(r, r, -a) != 0 else 0
    return IXC if np.float64(r) * np.float64(r) != np.float64(a) else 0


@njit(cache=True)
def to_int_flags(x, mode, bits, unsigned):
    """Flags of FCVT*[SU] of float64 x to a bits-wide integer."""
    if x != x:
        return IOC
    y = np.float64(round_int(np.float64(x), mode))
    if unsigned:
        lo, hi = 0.0, (4294967296.0 if bits == 32 else 18446744073709551616.0)
    else:
        lo, hi = (-2147483648.0, 2147483648.0) if bits == 32 else (-9223372036854775808.0, 9223372036854775808.0)
    if y < lo or y >= hi:
        return IOC
    return IXC if y != x else 0


@njit(cache=True)
def cvtf_flags(x, unsigned64, r):
    """IXC if converting the integer x ([SU]CVTF; x already sign/zero-extended) to float r was inexact."""
    rr = np.float64(r)
    if unsigned64:
        if rr >= 18446744073709551616.0:
            return IXC
        return 0 if np.uint64(rr) == np.uint64(x) else IXC
    if rr >= 9223372036854775808.0:
        return IXC
    return 0 if np.int64(rr) == x else IXC


@njit(cache=True)
def nan_flags(ab, bb, cb, n, dbl):
    """IOC if one of the first n operands (bit patterns) is a signalling NaN."""
    if is_snan(ab, dbl) or (n > 1 and is_snan(bb, dbl)) or (n > 2 and is_snan(cb, dbl)):
        return IOC
    return 0


@njit(cache=True, error_model="numpy")
def binop_bits_flags(kind, xb, yb, dbl):
    """Flags of fp_binop(kind, xb, yb) (bit patterns), recomputed in the operands' precision."""
    if is_nan(xb, dbl) or is_nan(yb, dbl):
        return nan_flags(xb, yb, 0, 2, dbl)
    if kind == K_MAX or kind == K_MIN or kind == K_MAXNM or kind == K_MINNM:
        return 0
    k = K_SUB if kind == K_ABD else K_MUL if kind == K_MULX else kind
    if dbl:
        a, b = i64_as_f64(xb), i64_as_f64(yb)
    else:
        a, b = np.float64(i32_as_f32(xb)), np.float64(i32_as_f32(yb))
    if kind == K_MULX and ((a == 0 and np.isinf(b)) or (b == 0 and np.isinf(a))):
        return 0
    if dbl:
        r = a + b if k == K_ADD else a - b if k == K_SUB else a * b if k == K_MUL else a / b
        return arith_flags(k, a, b, r, True)
    fa, fb = np.float32(a), np.float32(b)
    fr = fa + fb if k == K_ADD else fa - fb if k == K_SUB else fa * fb if k == K_MUL else fa / fb
    return arith_flags(k, fa, fb, fr, False)


@njit(cache=True)
def fma_bits_flags(ab, bb, cb, dbl):
    """Flags of fp_fma(ab, bb, cb) = cb + ab*bb."""
    if is_nan(ab, dbl) or is_nan(bb, dbl) or is_nan(cb, dbl):
        f = nan_flags(ab, bb, cb, 3, dbl)
        if inf_times_zero(ab, bb, dbl):         # inf*0 + NaN is invalid too
            f |= IOC
        return f
    if dbl:
        a, b, c = i64_as_f64(ab), i64_as_f64(bb), i64_as_f64(cb)
        return fma_flags(a, b, c, fma64(a, b, c), True)
    fa, fb, fc = i32_as_f32(ab), i32_as_f32(bb), i32_as_f32(cb)
    return fma_flags(fa, fb, fc, fma32(fa, fb, fc), False)


@njit(cache=True)
def cmp_bits_flags(xb, yb, dbl, signalling):
    """FCMEQ is quiet (IOC for signalling NaNs only); FCMGE/GT/FACGE/GT signal on any NaN."""
    if signalling and (is_nan(xb, dbl) or is_nan(yb, dbl)):
        return IOC
    return nan_flags(xb, yb, 0, 2, dbl)


@njit(cache=True, error_model="numpy")
def narrow_flags(xb):
    """Flags of rounding the double with bits xb to single (FCVT / FCVTN)."""
    if is_nan(xb, True):
        return nan_flags(xb, 0, 0, 1, True)
    x = i64_as_f64(xb)
    r = np.float32(x)
    if np.isinf(r) and not np.isinf(x):
        return OFC | IXC
    return result_flags(r, np.float64(r) != x, False)


@njit(cache=True)
def fixed_flags(x, to_fp, dbl, width, unsigned, fb):
    """Flags of [SU]CVTF (to_fp; x the integer bits) / FCVTZ[SU] (x the FP bits) with fb fraction bits."""
    scale = np.float64(2.0) ** fb
    if to_fp:
        if width == 32:
            xi = (x & 0xFFFFFFFF) if unsigned else sextn(x, 32)
        else:
            xi = x
        return cvtf_flags(xi, unsigned and width == 64, fval(fixed_to_fp(x, width, unsigned, fb, dbl), dbl) * scale)
    return to_int_flags(fval(x, dbl) * scale, 3, width, unsigned)
