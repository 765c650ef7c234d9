"""Benchmark problems: a name, a family, a reference function on 32-bit
signed values and a generator of inputs it is meant for.

`ref(*inputs)` returns one value, or a tuple for several outputs. Memory
problems take and return arrays (see `suite.py` for how they become specs).
Inputs are drawn from `gen(rng)`; the same generator makes the examples and
the unseen inputs the benchmark uses to measure generalisation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from ncpu.isa.semantics import divide, modulo, shift_right_logical as _shr, wrap as w
from ncpu.synth.benchmarks import hackers_delight as hd


@dataclass(frozen=True)
class Def:
    name: str
    family: str
    arity: int
    ref: Callable
    gen: str = "small"  # input distribution: small, any, byte, positive, tiny, nat
    outputs: int = 1
    memory: str = ""  # "", "fold", "map", "inplace", "fixed4", "store"
    examples: int = 10  # frozen examples in suite.json
    sharp: bool = False  # mix edge values (0, +-1, INT_MIN/MAX, 2^k...) into them


def strengthen(*names: str, examples: int = 32) -> None:
    """Problems whose 10 random examples admitted a wrong program: freeze
    more examples, with edge values mixed in (see suite.EDGES)."""
    for i, d in enumerate(DEFS):
        if d.name in names:
            DEFS[i] = Def(**{**d.__dict__, "examples": examples, "sharp": True})


def _rotl(x, k):
    u = x & 0xFFFFFFFF
    return w(((u << k) | (u >> (32 - k))) & 0xFFFFFFFF)


def _pow2_up(x):
    return 1 if x <= 1 else 1 << (x - 1).bit_length()


DEFS: list[Def] = []


def add(*args, **kw):
    DEFS.append(Def(*args, **kw))


# --- arithmetic -------------------------------------------------------------
add("add", "arithmetic", 2, lambda a, b: w(a + b), "any")
add("sub", "arithmetic", 2, lambda a, b: w(a - b), "any")
add("rsub", "arithmetic", 2, lambda a, b: w(b - a), "any")
add("mul", "arithmetic", 2, lambda a, b: w(a * b), "any")
add("neg", "arithmetic", 1, lambda a: w(-a), "any")
for k in (1, 2, 5, 7, 100, -3, 1000):
    add(f"add_const_{k}".replace("-", "m"), "arithmetic", 1, lambda a, k=k: w(a + k), "any")
for k in (2, 3, 5, 6, 9, 10, -1, -4, 15):
    add(f"mul_const_{k}".replace("-", "m"), "arithmetic", 1, lambda a, k=k: w(a * k), "any")
for k in (2, 3, 4, 10):
    add(f"div_const_{k}", "arithmetic", 1, lambda a, k=k: divide(a, k), "any")
    add(f"mod_const_{k}", "arithmetic", 1, lambda a, k=k: modulo(a, k), "any")
add("div", "arithmetic", 2, lambda a, b: divide(a, b), "any")
add("mod", "arithmetic", 2, lambda a, b: modulo(a, b), "any")
add("double_plus", "arithmetic", 2, lambda a, b: w(2 * a + b), "any")
add("sum3", "arithmetic", 3, lambda a, b, c: w(a + b + c), "any")
add("mul_add", "arithmetic", 3, lambda a, b, c: w(a * b + c), "any")
add("square", "arithmetic", 1, lambda a: w(a * a), "any")
add("cube", "arithmetic", 1, lambda a: w(a * a * a), "any")
add("square_plus_x", "arithmetic", 1, lambda a: w(a * a + a), "any")
add("diff_squares", "arithmetic", 2, lambda a, b: w(a * a - b * b), "any")
add("sum_times_two", "arithmetic", 2, lambda a, b: w((a + b) * 2), "any")
add("mul_succ", "arithmetic", 2, lambda a, b: w(a * (b + 1)), "any")
add("poly_2x2_3x_1", "arithmetic", 1, lambda a: w(2 * a * a + 3 * a + 1), "small")
add("mean_floor_small", "arithmetic", 2, lambda a, b: (a + b) >> 1, "small")
add("triangular", "arithmetic", 1, lambda n: w(n * (n + 1) // 2), "nat")
add("a_minus_b_plus_1", "arithmetic", 2, lambda a, b: w(a - b + 1), "any")
add("linear_3a_2b", "arithmetic", 2, lambda a, b: w(3 * a - 2 * b), "any")
add("dist_sq", "arithmetic", 2, lambda a, b: w((a - b) * (a - b)), "small")
# --- bit manipulation (Hacker's Delight, chapter 2 and friends) -------------
add("turn_off_rightmost_one", "bits", 1, lambda x: x & w(x - 1), "any")
add("isolate_rightmost_one", "bits", 1, lambda x: x & w(-x), "any")
add("turn_on_rightmost_zero", "bits", 1, lambda x: x | w(x + 1), "any")
add("isolate_rightmost_zero", "bits", 1, lambda x: ~x & w(x + 1), "any")
add("turn_off_trailing_ones", "bits", 1, lambda x: x & w(x + 1), "any")
add("turn_on_trailing_zeros", "bits", 1, lambda x: x | w(x - 1), "any")
add("mask_trailing_zeros", "bits", 1, lambda x: ~x & w(x - 1), "any")
add("mask_rightmost_one_and_trailing", "bits", 1, lambda x: x ^ w(x - 1), "any")
add("avg_floor_no_overflow", "bits", 2, lambda a, b: (a & b) + ((a ^ b) >> 1), "any")
add("avg_ceil_no_overflow", "bits", 2, lambda a, b: w((a | b) - ((a ^ b) >> 1)), "any")
add("sign", "bits", 1, lambda x: (x > 0) - (x < 0), "any")
add("sign_mask", "bits", 1, lambda x: -1 if x < 0 else 0, "any")
add("abs", "bits", 1, lambda x: w(abs(x)), "any")
add("nabs", "bits", 1, lambda x: w(-abs(x)), "any")
add("min_branchless", "bits", 2, lambda a, b: min(a, b), "small")
add("max_branchless", "bits", 2, lambda a, b: max(a, b), "small")
add("round_up_pow2", "bits", 1, _pow2_up, "positive")
add("round_down_pow2", "bits", 1, lambda x: 1 << (x.bit_length() - 1), "positive")
add("parity", "bits", 1, lambda x: bin(x & 0xFFFFFFFF).count("1") & 1, "any")
add("gray_code", "bits", 1, lambda x: x ^ _shr(x, 1), "any")
add("is_power_of_two_mask", "bits", 1, lambda x: x & w(x - 1), "positive")
add("and", "bits", 2, lambda a, b: a & b, "any")
add("or", "bits", 2, lambda a, b: a | b, "any")
add("xor", "bits", 2, lambda a, b: a ^ b, "any")
add("nand", "bits", 2, lambda a, b: ~(a & b), "any")
add("nor", "bits", 2, lambda a, b: ~(a | b), "any")
add("xnor", "bits", 2, lambda a, b: ~(a ^ b), "any")
add("and_not", "bits", 2, lambda a, b: a & ~b, "any")
add("or_not", "bits", 2, lambda a, b: a | ~b, "any")
add("not", "bits", 1, lambda a: ~a, "any")
for k in (1, 4, 8, 16, 31):
    add(f"shr_logical_{k}", "bits", 1, lambda x, k=k: _shr(x, k), "any")
    add(f"shl_{k}", "bits", 1, lambda x, k=k: w(x << k), "any")
for k in (1, 8, 16):
    add(f"rotate_left_{k}", "bits", 1, lambda x, k=k: _rotl(x, k), "any")
for k in (0, 3, 7, 31):
    add(f"test_bit_{k}", "bits", 1, lambda x, k=k: _shr(x, k) & 1, "any")
    add(f"set_bit_{k}", "bits", 1, lambda x, k=k: w(x | (1 << k)), "any")
    add(f"clear_bit_{k}", "bits", 1, lambda x, k=k: w(x & ~(1 << k)), "any")
    add(f"toggle_bit_{k}", "bits", 1, lambda x, k=k: w(x ^ (1 << k)), "any")
add("low_byte", "bits", 1, lambda x: x & 0xFF, "any")
add("high_byte", "bits", 1, lambda x: _shr(x, 24), "any")
add("sign_extend_byte", "bits", 1, lambda x: w(x << 24) >> 24, "any")
add("sign_extend_half", "bits", 1, lambda x: w(x << 16) >> 16, "any")
add("low_half", "bits", 1, lambda x: x & 0xFFFF, "any")
add("merge_bits_mask", "bits", 3, lambda a, b, m: (a & ~m) | (b & m), "any")
add("swap_halves", "bits", 1, lambda x: _rotl(x, 16), "any")
add("shift_by_var", "bits", 2, lambda a, b: w(a << (b & 31)), "any")
add("byte_count_bits_set_low", "bits", 1, lambda x: bin(x & 0xF).count("1"), "any")
# --- comparisons (as 0/1 or masks) ------------------------------------------
add("is_negative", "comparison", 1, lambda x: int(x < 0), "any")
add("is_non_negative", "comparison", 1, lambda x: int(x >= 0), "any")
add("is_zero", "comparison", 1, lambda x: int(x == 0), "anyzero")
add("is_nonzero", "comparison", 1, lambda x: int(x != 0), "anyzero")
add("less_than_small", "comparison", 2, lambda a, b: int(a < b), "small")
add("less_equal_small", "comparison", 2, lambda a, b: int(a <= b), "small")
add("greater_than_small", "comparison", 2, lambda a, b: int(a > b), "small")
add("equal", "comparison", 2, lambda a, b: int(a == b), "pairs")
add("not_equal", "comparison", 2, lambda a, b: int(a != b), "pairs")
add("less_than_mask_small", "comparison", 2, lambda a, b: -int(a < b), "small")
add("is_even", "comparison", 1, lambda x: int(x % 2 == 0), "any")
add("is_odd", "comparison", 1, lambda x: x & 1, "any")
add("unsigned_less", "comparison", 2, lambda a, b: int((a & 0xFFFFFFFF) < (b & 0xFFFFFFFF)), "any")
add("same_sign", "comparison", 2, lambda a, b: int((a < 0) == (b < 0)), "any")
add("is_pow2_or_zero", "comparison", 1, lambda x: int(x & (x - 1) == 0), "pow2mix")
# --- several outputs ---------------------------------------------------------
add("sum_and_diff", "multi", 2, lambda a, b: (w(a + b), w(a - b)), "any", 2)
add("swap", "multi", 2, lambda a, b: (b, a), "any", 2)
add("divmod", "multi", 2, lambda a, b: (divide(a, b), modulo(a, b)), "any", 2)
add("and_or", "multi", 2, lambda a, b: (a & b, a | b), "any", 2)
add("double_triple", "multi", 1, lambda a: (w(2 * a), w(3 * a)), "any", 2)
add("min_max_small", "multi", 2, lambda a, b: (min(a, b), max(a, b)), "small", 2)
add("neg_not", "multi", 1, lambda a: (w(-a), ~a), "any", 2)
add("rotate3", "multi", 3, lambda a, b, c: (b, c, a), "any", 3)
add("square_cube", "multi", 1, lambda a: (w(a * a), w(a * a * a)), "any", 2)
add("split_halves", "multi", 1, lambda x: (_shr(x, 16), x & 0xFFFF), "any", 2)
add("prod_sum", "multi", 2, lambda a, b: (w(a * b), w(a + b)), "any", 2)
add("inc_dec", "multi", 1, lambda a: (w(a + 1), w(a - 1)), "any", 2)
add("xor_swap_like", "multi", 2, lambda a, b: (a ^ b, b), "any", 2)
add("half_and_rem", "multi", 1, lambda a: (a >> 1, a & 1), "any", 2)
add("abs_sign", "multi", 1, lambda a: (w(abs(a)), -1 if a < 0 else 0), "any", 2)
# --- memory ------------------------------------------------------------------
# fold: inputs (base, n), output the fold; map/inplace: memory out.
add("array_sum", "memory", 2, lambda xs: w(sum(xs)), "array", memory="fold")
add("array_max", "memory", 2, lambda xs: max(xs), "array", memory="fold")
add("array_min", "memory", 2, lambda xs: min(xs), "array", memory="fold")
add("array_xor", "memory", 2, lambda xs: _xor_all(xs), "array", memory="fold")
add("array_product", "memory", 2, lambda xs: _product(xs), "smallarray", memory="fold")
add("array_or", "memory", 2, lambda xs: _or_all(xs), "array", memory="fold")
add("array_copy", "memory", 3, lambda xs: list(xs), "array", memory="map")
add("array_reverse_copy", "memory", 3, lambda xs: list(xs[::-1]), "array", memory="map")
add("array_negate_copy", "memory", 3, lambda xs: [w(-x) for x in xs], "array", memory="map")
add("array_double_copy", "memory", 3, lambda xs: [w(2 * x) for x in xs], "array", memory="map")
add("array_increment_inplace", "memory", 2, lambda xs: [w(x + 1) for x in xs], "array", memory="inplace")
add("array_reverse_inplace", "memory", 2, lambda xs: list(xs[::-1]), "array", memory="inplace")
add("array_not_inplace", "memory", 2, lambda xs: [~x for x in xs], "array", memory="inplace")
add("sum4_fixed", "memory", 1, lambda xs: w(sum(xs)), "array4", memory="fixed4")
add("first_plus_last4", "memory", 1, lambda xs: w(xs[0] + xs[3]), "array4", memory="fixed4")
add("store_sum", "memory", 3, lambda a, b: w(a + b), "any", memory="store")
add("store_product", "memory", 3, lambda a, b: w(a * b), "any", memory="store")
# --- loops -------------------------------------------------------------------
add("factorial", "loops", 1, lambda n: w(math.factorial(n)), "tiny")
add("gcd", "loops", 2, lambda a, b: math.gcd(a, b), "gcdpairs")
add("popcount", "loops", 1, lambda x: bin(x & 0xFFFFFFFF).count("1"), "any")
add("sum_to_n", "loops", 1, lambda n: n * (n + 1) // 2, "nat")
add("power", "loops", 2, lambda b, e: w(b ** e), "powpairs")
add("ilog2", "loops", 1, lambda x: x.bit_length() - 1, "positive")
add("digit_sum", "loops", 1, lambda x: sum(int(c) for c in str(x)), "positive")
add("count_digits", "loops", 1, lambda x: len(str(x)), "positive")
add("bit_length", "loops", 1, lambda x: x.bit_length(), "positive")
add("sum_squares_to_n", "loops", 1, lambda n: sum(i * i for i in range(n + 1)), "nat")
add("multiply_by_addition", "loops", 2, lambda a, n: w(a * n), "mulpairs")
add("round_up_pow2_loop", "loops", 1, _pow2_up, "positive")
add("trailing_zeros", "loops", 1, lambda x: (x & -x).bit_length() - 1, "positive")
add("double_until_exceeds", "loops", 2, lambda a, limit: _double_until(a, limit), "dblpairs")
add("collatz_steps", "loops", 1, lambda n: _collatz(n), "positive_small")
add("fibonacci", "loops", 1, lambda n: _fib(n), "tiny")
add("reverse_digits", "loops", 1, lambda x: int(str(x)[::-1]), "positive")
# --- Hacker's Delight P1-P25 (Gulwani et al., PLDI 2011): see hackers_delight.py
for _number, _name, _arity, _ref, _gen in hd.PROBLEMS:
    add(f"hd{_number:02d}_{_name}", hd.FAMILY, _arity, _ref, _gen, examples=hd.EXAMPLES)


def _xor_all(xs):
    out = 0
    for x in xs:
        out ^= x
    return out


def _or_all(xs):
    out = 0
    for x in xs:
        out |= x
    return out


def _product(xs):
    out = 1
    for x in xs:
        out = w(out * x)
    return out


def _double_until(a, limit):
    while a < limit:
        a *= 2
    return a


def _collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def _fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


# Problems whose 10 random examples admitted a wrong program (found by
# running the enumerative and sketch families on them and checking the
# result on unseen inputs with edge values), and every 0/1-valued
# comparison (one bit of evidence per example): 32 or more examples, edge values
# mixed in. `python -m ncpu.synth.benchmarks.generate` refreezes suite.json.
strengthen(
    "add_const_m3", "avg_floor_no_overflow", "clear_bit_0", "clear_bit_31", "cube", "div_const_4", "gray_code",
    "mod", "mul_const_3", "mul_const_5", "parity", "round_down_pow2", "set_bit_31", "shr_logical_31",
    "shr_logical_4", "sign", "sign_mask", "toggle_bit_0", "toggle_bit_31", "turn_on_trailing_zeros", "xnor",
    *[d.name for d in DEFS if d.family == "comparison"],
    # The gradient family's answers exposed these (x & 24 / (x & 24) for bit 3).
    *[d.name for d in DEFS if d.name.startswith(("test_bit_", "mod_const_"))],
    # The sketch family's two-output branch tested x <= 0 instead of x < 0:
    # no random example was 0. The edge values start with 0.
    "abs_sign",
)
