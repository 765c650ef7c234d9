"""The Hacker's Delight problems P1-P25 of Gulwani, Jha, Tiwari and
Venkatesan, "Synthesis of loop-free programs" (PLDI 2011), as a problem
family of the suite.

Each reference is written here from the paper's one-line description of
the problem (what the function computes), on signed 32-bit values; where
the description reads the word as unsigned (leading zeros, powers of two,
the next number with as many set bits, the high half of a product) so does
the reference. Their input generators make examples as a user would have
them: mostly random words, with edge values only some of the time (the
"any" distribution), or the inputs the description presumes (a mask and a
shift that fit, three distinct values, words without overflow).
"""

from __future__ import annotations

from ncpu.isa.semantics import wrap as w

MASK = 0xFFFFFFFF


def _nlz(x: int) -> int:
    return 32 - (x & MASK).bit_length()


def _swap_fields(x: int, m: int, k: int) -> int:
    """Exchange the field `m` of x with the field `m << k` (P19)."""
    u = x & MASK
    t = ((u >> k) ^ u) & m
    return w(u ^ t ^ (t << k))


def _next_same_popcount(x: int) -> int:
    """The next larger unsigned number with the same number of set bits (P20)."""
    u = x & MASK
    lowest = u & -u
    ripple = (u + lowest) & MASK
    ones = ((u ^ ripple) >> 2) // lowest
    return w(ripple | ones)


def _cycle3(x: int, a: int, b: int, c: int) -> int:
    """a -> b -> c -> a (P21); x is one of the three."""
    return b if x == a else c if x == b else a


def _round_up_pow2(x: int) -> int:
    return 1 if x <= 1 else 1 << (x - 1).bit_length()


# (number, name, arity, reference, input distribution); distributions are
# suite.py's, plus the hd_* ones defined there: words of every length for
# the leading-zero tests (uniform words almost all have 0 or 1 leading
# zeros), a mask and shift that fit for P19, positive words for P20 and P24,
# three distinct values for P21.
PROBLEMS = [
    (1, "turn_off_rightmost_one", 1, lambda x: x & w(x - 1), "any"),
    (2, "test_ones_below", 1, lambda x: x & w(x + 1), "any"),  # zero iff x = 2^n - 1
    (3, "isolate_rightmost_one", 1, lambda x: x & w(-x), "any"),
    (4, "mask_rightmost_one_and_trailing_zeros", 1, lambda x: x ^ w(x - 1), "any"),
    (5, "right_propagate_rightmost_one", 1, lambda x: x | w(x - 1), "any"),
    (6, "turn_on_rightmost_zero", 1, lambda x: x | w(x + 1), "any"),
    (7, "isolate_rightmost_zero", 1, lambda x: ~x & w(x + 1), "any"),
    (8, "mask_trailing_zeros", 1, lambda x: ~x & w(x - 1), "any"),
    (9, "abs", 1, lambda x: w(abs(x)), "any"),
    (10, "nlz_equal", 2, lambda x, y: int(_nlz(x) == _nlz(y)), "hd_magnitudes"),
    (11, "nlz_less", 2, lambda x, y: int(_nlz(x) < _nlz(y)), "hd_magnitudes"),
    (12, "nlz_less_equal", 2, lambda x, y: int(_nlz(x) <= _nlz(y)), "hd_magnitudes"),
    (13, "sign", 1, lambda x: (x > 0) - (x < 0), "any"),
    (14, "floor_average", 2, lambda x, y: (x + y) >> 1, "any"),
    (15, "ceil_average", 2, lambda x, y: -((-(x + y)) >> 1), "any"),
    (16, "max", 2, lambda x, y: max(x, y), "any"),
    (17, "turn_off_rightmost_ones_run", 1, lambda x: w((x | w(x - 1)) + 1) & x, "any"),
    (18, "is_power_of_two", 1, lambda x: int((x & MASK) != 0 and x & w(x - 1) == 0), "pow2mix"),
    (19, "swap_fields", 3, _swap_fields, "hd_fields"),
    (20, "next_same_popcount", 1, _next_same_popcount, "hd_positive"),
    (21, "cycle_three_values", 4, _cycle3, "hd_cycle3"),
    (22, "parity", 1, lambda x: bin(x & MASK).count("1") & 1, "any"),
    (23, "popcount", 1, lambda x: bin(x & MASK).count("1"), "any"),
    (24, "round_up_pow2", 1, _round_up_pow2, "hd_positive"),
    (25, "mul_high_unsigned", 2, lambda x, y: w(((x & MASK) * (y & MASK)) >> 32), "any"),
]
FAMILY = "hackers_delight"
EXAMPLES = 24


def names() -> list[str]:
    return [f"hd{number:02d}_{name}" for number, name, *_ in PROBLEMS]
