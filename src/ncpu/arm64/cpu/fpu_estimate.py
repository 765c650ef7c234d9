"""The reciprocal estimates and steps of Advanced SIMD, on bit patterns.

FRECPE / FRSQRTE give an 8-bit estimate of 1/x and 1/sqrt(x) from a table
the architecture defines by formula (RecipEstimate, RecipSqrtEstimate in the
ARM ARM's pseudocode, computed here rather than tabulated), with the
exponent worked out apart; URECPE / URSQRTE apply the same formulas to
unsigned fixed point.  FRECPX keeps only an exponent.  FRECPS / FRSQRTS
are the Newton-Raphson steps 2 - a*b and (3 - a*b) / 2, fused (one
rounding).  FCVTXN narrows double to single rounding to odd.  Each returns
(result bits, FPSR flags); FPCR.FZ flushes subnormal inputs (IDC) and
results below the normal range (UFC), FPCR.DN forces the default NaN, and
FPCR.RMode decides FRECPE's overflow; the steps' fused multiply-add rounds
to nearest, as all of fpu.py's arithmetic does (RMode not modelled there).
"""
import numpy as np

from .fpu import default_nan, fma_bits_flags, fp_fma, inf_times_zero, is_nan, is_snan, pick_nan
from .jit import njit

IOC, DZC, OFC, UFC, IXC, IDC = 1, 2, 4, 8, 16, 128
FZ_BIT = 1 << 24
_RMODE_SHIFT = 22


@njit(cache=True)
def recip_estimate(a):
    """RecipEstimate: a in [256, 512) is 0.5 <= x < 1 in steps of 1/512; the
    result in [256, 512) is 1/x in steps of 1/256, to nearest."""
    a = a * 2 + 1
    b = (1 << 19) // a
    return (b + 1) >> 1


@njit(cache=True)
def recip_sqrt_estimate(a):
    """RecipSqrtEstimate: a in [128, 512) is 0.25 <= x < 1 in steps of 1/512; the
    result in [256, 512) is 1/sqrt(x) in steps of 1/256, to nearest."""
    if a < 256:
        a = a * 2 + 1                  # in units of 1/1024, rounded to nearest
    else:
        a = ((a >> 1) << 1) + 1        # drop the bottom bit, units of 1/512
        a = a * 2
    b = 512
    while a * (b + 1) * (b + 1) < (1 << 28):
        b += 1
    return (b + 1) >> 1


@njit(cache=True)
def _unpack(x, dbl, fpcr):
    """(sign, biased exponent, fraction as 52 bits, flags): FZ flushes a subnormal to zero (IDC)."""
    if dbl:
        sign, exp, frac = (x >> 63) & 1, (x >> 52) & 0x7FF, x & 0xFFFFFFFFFFFFF
    else:
        sign, exp, frac = (x >> 31) & 1, (x >> 23) & 0xFF, (x & 0x7FFFFF) << 29
    if exp == 0 and frac != 0 and fpcr & FZ_BIT:
        return sign, exp, np.int64(0), IDC
    return sign, exp, frac, 0


@njit(cache=True)
def _flush(x, dbl, fpcr):
    """FPCR.FZ: a subnormal input becomes a zero of its sign (IDC)."""
    sign = np.int64(1) << (63 if dbl else 31)
    if fpcr & FZ_BIT and (x & ~sign) != 0 and (x & ~sign) < (np.int64(1) << (52 if dbl else 23)):
        return x & sign, IDC
    return x, 0


@njit(cache=True)
def _inf(sign, dbl):
    return (np.int64(sign) << 63) | np.int64(0x7FF0000000000000) if dbl else (np.int64(sign) << 31) | 0x7F800000


@njit(cache=True)
def _max_normal(sign, dbl):
    return (np.int64(sign) << 63) | np.int64(0x7FEFFFFFFFFFFFFF) if dbl else (np.int64(sign) << 31) | 0x7F7FFFFF


@njit(cache=True)
def _nan(x, dbl, fpcr):
    """FPProcessNaN: (quieted NaN or the default NaN, IOC if it signalled)."""
    _, r = pick_nan(x, 0, 0, 1, dbl, fpcr)
    return r, IOC if is_snan(x, dbl) else 0


@njit(cache=True)
def frecpe(x, dbl, fpcr):
    """FPRecipEstimate."""
    if is_nan(x, dbl):
        return _nan(x, dbl, fpcr)
    sign, exp, frac, fl = _unpack(x, dbl, fpcr)
    emax = 0x7FF if dbl else 0xFF
    if exp == emax:                                    # infinity
        return np.int64(sign) << (63 if dbl else 31), fl
    if exp == 0 and frac == 0:                         # zero
        return _inf(sign, dbl), fl | DZC
    if exp == 0 and frac < (np.int64(1) << 50):        # |x| < 2^-(emax + 1): 1/x overflows
        mode = (fpcr >> _RMODE_SHIFT) & 3
        to_inf = mode == 0 or (mode == 1 and sign == 0) or (mode == 2 and sign == 1)
        return (_inf(sign, dbl) if to_inf else _max_normal(sign, dbl)), fl | OFC | IXC
    if fpcr & FZ_BIT and exp >= (2045 if dbl else 253):  # |x| >= 2^(emax - 1): 1/x subnormal, flushed
        return np.int64(sign) << (63 if dbl else 31), fl | UFC
    if exp == 0:                                       # subnormal: normalise by one or two places
        if (frac >> 51) & 1 == 0:
            exp = -1
            frac = (frac << 2) & 0xFFFFFFFFFFFFF
        else:
            frac = (frac << 1) & 0xFFFFFFFFFFFFF
    est = recip_estimate(256 | (frac >> 44))
    rexp = (2045 if dbl else 253) - exp
    f = np.int64(est & 0xFF) << 44
    if rexp == 0:
        f = (np.int64(1) << 51) | (f >> 1)
    elif rexp == -1:
        f = (np.int64(1) << 50) | (f >> 2)
        rexp = 0
    if dbl:
        return (np.int64(sign) << 63) | (np.int64(rexp) << 52) | f, fl
    return (np.int64(sign) << 31) | (np.int64(rexp) << 23) | (f >> 29), fl


@njit(cache=True)
def frsqrte(x, dbl, fpcr):
    """FPRecipSqrtEstimate."""
    if is_nan(x, dbl):
        return _nan(x, dbl, fpcr)
    sign, exp, frac, fl = _unpack(x, dbl, fpcr)
    emax = 0x7FF if dbl else 0xFF
    if exp == 0 and frac == 0:                         # zero
        return _inf(sign, dbl), fl | DZC
    if sign:                                           # negative: invalid
        return default_nan(dbl), fl | IOC
    if exp == emax:                                    # +infinity
        return np.int64(0), fl
    if exp == 0:                                       # subnormal: normalise
        while (frac >> 51) & 1 == 0:
            frac = frac << 1
            exp -= 1
        frac = (frac << 1) & 0xFFFFFFFFFFFFF
    if exp & 1 == 0:
        scaled = 256 | (frac >> 44)
    else:
        scaled = 128 | (frac >> 45)
    rexp = ((3068 if dbl else 380) - exp) // 2
    est = np.int64(recip_sqrt_estimate(scaled) & 0xFF)
    if dbl:
        return (np.int64(rexp) << 52) | (est << 44), fl
    return (np.int64(rexp) << 23) | (est << 15), fl


@njit(cache=True)
def frecpx(x, dbl, fpcr):
    """FPRecipX: the exponent inverted, fraction cleared (zero and subnormals: the
    largest finite exponent)."""
    if is_nan(x, dbl):
        return _nan(x, dbl, fpcr)
    sign, exp, frac, fl = _unpack(x, dbl, fpcr)
    if dbl:
        e = 0x7FE if exp == 0 else (~exp) & 0x7FF
        return (np.int64(sign) << 63) | (np.int64(e) << 52), fl
    e = 0xFE if exp == 0 else (~exp) & 0xFF
    return (np.int64(sign) << 31) | (np.int64(e) << 23), fl


@njit(cache=True)
def urecpe(x):
    """UnsignedRecipEstimate of a 32-bit lane (a fraction 0.x): all ones below one half."""
    if (x >> 31) & 1 == 0:
        return np.int64(0xFFFFFFFF)
    return np.int64(recip_estimate((x >> 23) & 0x1FF)) << 23


@njit(cache=True)
def ursqrte(x):
    """UnsignedRSqrtEstimate of a 32-bit lane: all ones below one quarter."""
    if (x >> 30) & 3 == 0:
        return np.int64(0xFFFFFFFF)
    return np.int64(recip_sqrt_estimate((x >> 23) & 0x1FF)) << 23


@njit(cache=True)
def frecps(a, b, dbl, fpcr):
    """FPRecipStepFused: 2 - a*b with one rounding (inf * 0: 2 exactly).  The negation
    comes first, so a NaN in `a` comes out with its sign flipped, as on hardware."""
    sign = np.int64(1) << (63 if dbl else 31)
    two = np.int64(0x4000000000000000) if dbl else np.int64(0x40000000)
    a, fa = _flush(a, dbl, fpcr)
    b, fb = _flush(b, dbl, fpcr)
    na = a ^ sign
    if not is_nan(a, dbl) and not is_nan(b, dbl) and inf_times_zero(a, b, dbl):
        return two, fa | fb
    return fp_fma(na, b, two, dbl, fpcr), fma_bits_flags(na, b, two, dbl) | fa | fb


@njit(cache=True)
def _exp_field(x, dbl):
    return (x >> 52) & 0x7FF if dbl else (x >> 23) & 0xFF


@njit(cache=True)
def frsqrts(a, b, dbl, fpcr):
    """FPRSqrtStepFused: (3 - a*b) / 2 with one rounding (inf * 0: 1.5 exactly).
    Computed as 1.5 - (a/2)*b, halving an operand whose halving is exact (a normal
    number above the smallest exponent, zero or infinity): the sum then never
    overflows where the halved result would not."""
    sign = np.int64(1) << (63 if dbl else 31)
    a, fa = _flush(a, dbl, fpcr)
    b, fb = _flush(b, dbl, fpcr)
    if is_nan(a, dbl) or is_nan(b, dbl):
        nan, r = pick_nan(a ^ sign, b, 0, 2, dbl, fpcr)
        return r, (IOC if is_snan(a, dbl) or is_snan(b, dbl) else 0) | fa | fb
    if inf_times_zero(a, b, dbl):
        return (np.int64(0x3FF8000000000000) if dbl else np.int64(0x3FC00000)), fa | fb
    one_half = np.int64(0x3FF8000000000000) if dbl else np.int64(0x3FC00000)
    three = np.int64(0x4008000000000000) if dbl else np.int64(0x40400000)
    unit = np.int64(1) << (52 if dbl else 23)
    emax = 0x7FF if dbl else 0xFF
    mag = sign - 1
    ea, eb = _exp_field(a, dbl), _exp_field(b, dbl)
    if ea >= 2 or (a & mag) == 0:
        h = a if ea == emax or (a & mag) == 0 else a - unit       # a / 2
        x, y, c = h ^ sign, b, one_half
    elif eb >= 2 or (b & mag) == 0:
        h = b if eb == emax or (b & mag) == 0 else b - unit
        x, y, c = a ^ sign, h, one_half
    else:                                              # both tiny: 3 - a*b rounds as 3 does, then halves exactly
        r = fp_fma(a ^ sign, b, three, dbl, fpcr)
        return r - unit, fma_bits_flags(a ^ sign, b, three, dbl) | fa | fb
    return fp_fma(x, y, c, dbl, fpcr), fma_bits_flags(x, y, c, dbl) | fa | fb


@njit(cache=True)
def fcvtxn(x, fpcr):
    """Double to single, rounding to odd (FCVTXN): truncate, and set the last bit
    when anything was dropped; the exact value's range decides overflow (the
    largest finite single) and underflow."""
    if is_nan(x, True):
        _, r = pick_nan(x, 0, 0, 1, True, fpcr)
        fl = IOC if is_snan(x, True) else 0
        if fpcr & (1 << 25):
            return np.int64(0x7FC00000), fl
        return ((r >> 32) & np.int64(0x80000000)) | 0x7FC00000 | ((r >> 29) & 0x3FFFFF), fl
    sign, exp, frac, fl = _unpack(x, True, fpcr)
    s = np.int64(sign) << 31
    if exp == 0x7FF:
        return s | 0x7F800000, fl
    if exp == 0 and frac == 0:
        return s, fl
    if exp >= 1023 + 128:                              # |x| >= 2^128
        return s | 0x7F7FFFFF, fl | OFC | IXC
    if exp < 1023 - 126 and fpcr & FZ_BIT:             # below single's normal range: FZ flushes
        return s, fl | UFC
    if exp == 0:                                       # a double subnormal: far below single's range
        return s | 1, fl | UFC | IXC
    m = frac | (np.int64(1) << 52)                     # 53-bit significand, value m * 2^(exp - 1075)
    e = exp - 1023                                     # unbiased
    if e >= -126:                                      # normal single: keep 23 fraction bits
        drop = 29
        bexp = e + 127
    else:                                              # subnormal single: fewer bits
        drop = 29 + (-126 - e)
        bexp = 0
    if drop > 60:
        kept, lost = np.int64(0), m != 0
    else:
        kept = m >> drop
        lost = (m & ((np.int64(1) << drop) - 1)) != 0
    if bexp > 0:
        r = (np.int64(bexp) << 23) | (kept & 0x7FFFFF)
    else:
        r = kept
    if lost:
        r |= 1
        fl |= IXC
        if bexp == 0:
            fl |= UFC
    return s | r, fl
