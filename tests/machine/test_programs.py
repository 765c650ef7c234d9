"""The example programs in `programs/`: each one's declared final state, in
every engine; all engines agreeing on the whole final state; the key results
recomputed in plain Python; and the header format itself.

Programs with `@test-init` (the benchmark loop) run here with that smaller
setup and are checked against `@test-expect`, so the suite stays quick.
"""

from __future__ import annotations

import functools
import math
import zlib
from pathlib import Path

import pytest

from ncpu.machine.engines import ENGINES, get_engine
from ncpu.machine.program_file import (
    DEFAULT_MAX_STEPS,
    ProgramFileError,
    expectation_failures,
    load_program_file,
    parse_program_file,
    program_paths,
)
from ncpu.isa.semantics import wrap
from ncpu.machine.state import MachineState

PROGRAMS_DIR = Path(__file__).resolve().parents[2] / "programs"
PATHS = program_paths(PROGRAMS_DIR)
IDS = [path.stem for path in PATHS]
TEST_STEP_LIMIT = 200_000  # keeps the pure-Python reference run of each program quick


@functools.cache
def program(stem: str):
    return load_program_file(PROGRAMS_DIR / f"{stem}.asm")


@functools.cache
def final_state(mode: str, stem: str) -> MachineState:
    pf = program(stem)
    return get_engine(mode).run(pf.program.words, pf.fresh_state(test=True), pf.max_steps)


# -- the corpus as a whole ---------------------------------------------------

def test_corpus_is_complete():
    assert len(PATHS) >= 45
    assert {"fibonacci", "bench_loop"} <= set(IDS)


@pytest.mark.parametrize("stem", IDS)
def test_header_is_complete(stem):
    pf = program(stem)
    assert pf.name == stem, "@name should match the file name"
    assert pf.description
    assert pf.expect.get("halted") == 1, "every example should declare that it halts"
    assert len(pf.expect) + len(pf.expect_mem) >= 2, "declare a result, not just halting"


def test_bench_loop_is_long_but_configurable():
    pf = program("bench_loop")
    iterations = pf.initial_state.registers[0]
    assert 6 * iterations + 5 == pf.expect["steps"] >= 100_000_000
    assert pf.max_steps >= pf.expect["steps"]
    assert pf.has_test_overrides and pf.test_initial_state.registers[0] < iterations


# -- every program in every engine -------------------------------------------

@pytest.mark.parametrize("stem", IDS)
@pytest.mark.parametrize("mode", list(ENGINES))
def test_program_meets_expectations(mode, stem):
    pf = program(stem)
    state = final_state(mode, stem)
    assert state.steps <= TEST_STEP_LIMIT, "too long for the default test run: add @test-init"
    assert expectation_failures(pf, state, test=True) == []


@pytest.mark.parametrize("stem", IDS)
@pytest.mark.parametrize("mode", [m for m in ENGINES if m != "reference"])
def test_engine_agrees_with_reference(mode, stem):
    assert final_state(mode, stem) == final_state("reference", stem)


# -- key results recomputed in Python, independently of any engine ----------
# Each oracle takes the program's starting state (registers `r`, memory `m`)
# and returns the expectations the file must declare: "R0" or ("mem", i).

def _sorted_block(m, start, count):
    return {("mem", start + i): v for i, v in enumerate(sorted(m[start:start + count]))}


def _popcount(x):
    return bin(x & 0xFFFFFFFF).count("1")


def _reverse_bits(x):
    return int(f"{x & 0xFFFFFFFF:032b}"[::-1], 2)


def _isqrt_check(r):
    return {"R0": math.isqrt(r[1])}


def _collatz(n):
    steps, peak = 0, n
    while n > 1:
        n = 3 * n + 1 if n % 2 else n // 2
        steps, peak = steps + 1, max(peak, n)
    return {"R0": steps, "R2": peak}


def _primes_below(n):
    return [p for p in range(2, n) if all(p % d for d in range(2, math.isqrt(p) + 1))]


def _fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def _ackermann(m, n):
    if m == 0:
        return n + 1
    return _ackermann(m - 1, 1) if n == 0 else _ackermann(m - 1, _ackermann(m, n - 1))


def _hanoi(n, a, b, c):
    moves = []

    def go(k, src, dst, via):
        if k:
            go(k - 1, src, via, dst)
            moves.append((src, dst))
            go(k - 1, via, dst, src)

    go(n, a, b, c)
    checksum = 0
    for src, dst in moves:
        checksum = wrap(checksum * 31 + 4 * src + dst)
    return {"R4": len(moves), "R5": checksum}


def _bench(n):
    acc = 0
    for i in range(n, 0, -1):
        acc = wrap(acc * 0x9E37 + i) if i & 1 else acc ^ i
    return {"R1": acc}


def _fnv1a(words):
    h = 0x811C9DC5
    for w in words:
        h = ((h ^ (w & 0xFFFFFFFF)) * 0x01000193) & 0xFFFFFFFF
    return {"R0": wrap(h)}


def _xorshift(seed, count):
    x, out = seed & 0xFFFFFFFF, []
    for _ in range(count):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        out.append(wrap(x))
    return {("mem", i): v for i, v in enumerate(out)}


def _c_div(a, b):
    """C's truncating division (small operands)."""
    return int(a / b)


def _kadane(xs):
    best = here = xs[0]
    for x in xs[1:]:
        here = max(x, here + x)
        best = max(best, here)
    return best


def _matmul(m):
    a, b = m[0:9], m[16:25]
    return {("mem", 32 + 3 * i + j): sum(a[3 * i + k] * b[3 * k + j] for k in range(3))
            for i in range(3) for j in range(3)}


def _alu_loop(iterations):
    r1, r2, r3 = 1, 0, 0
    for _ in range(iterations):
        r2 = wrap(r2 + r1)
        r3 ^= r2
        r1 += 1
    return {"R1": r1, "R2": r2, "R3": r3, "R4": wrap(r2 << 3), "steps": 2 + 6 * iterations + 1}


def _is_palindrome(words):
    return int(words == words[::-1])


ORACLES = {
    "fibonacci": lambda r, m: {"R0": _fib(r[1])},
    "bench_loop": lambda r, m: _bench(r[0]),
    "alu_loop": lambda r, m: _alu_loop(r[0]),
    "sum_to_n": lambda r, m: {"R0": sum(range(1, r[1] + 1))},
    "multiply_by_addition": lambda r, m: {"R0": r[1] * r[2]},
    "power": lambda r, m: {"R0": wrap(r[1] ** r[2])},
    "factorial": lambda r, m: {"R0": math.factorial(r[1])},
    "factorial_recursive": lambda r, m: {"R0": math.factorial(r[0])},
    "countdown_jns": lambda r, m: {"R1": sum(range(11)), "R0": -1},
    "popcount": lambda r, m: {"R0": _popcount(r[1])},
    "parity": lambda r, m: {"R0": _popcount(r[1]) % 2},
    "lowest_set_bit": lambda r, m: {"R0": r[1] & -r[1], "R2": r[1] & (r[1] - 1)},
    "reverse_bits": lambda r, m: {"R0": wrap(_reverse_bits(r[1]))},
    "count_leading_zeros": lambda r, m: {"R0": 32 - (r[1] & 0xFFFFFFFF).bit_length()},
    "branchless_abs_min_max": lambda r, m: {"R0": abs(r[1]), "R4": min(r[2], r[3]), "R5": max(r[2], r[3])},
    "is_power_of_two": lambda r, m: {("mem", 16 + i): int(w != 0 and (w & 0xFFFFFFFF).bit_count() == 1)
                                     for i, w in enumerate(m[:8])},
    "gray_code": lambda r, m: {"R0": r[1] ^ (r[1] >> 1), "R2": r[1]},
    "gcd": lambda r, m: {"R0": math.gcd(r[0], r[1])},
    "lcm": lambda r, m: {"R0": math.lcm(r[1], r[2]), "R3": math.gcd(r[1], r[2])},
    "primes_trial_division": lambda r, m: {"R0": len(_primes_below(r[1])), "R5": _primes_below(r[1])[-1]},
    "sieve": lambda r, m: {"R0": len(_primes_below(r[1])),
                           **{("mem", 64 + i): p for i, p in enumerate(_primes_below(r[1]))}},
    "fibonacci_recursive": lambda r, m: {"R0": _fib(r[0])},
    "collatz": lambda r, m: _collatz(r[1]),
    "isqrt_newton": lambda r, m: _isqrt_check(r),
    "isqrt_bisection": lambda r, m: _isqrt_check(r),
    "log2": lambda r, m: {"R0": (r[1] & 0xFFFFFFFF).bit_length() - 1},
    "bubble_sort": lambda r, m: _sorted_block(m, 0, r[1]),
    "insertion_sort": lambda r, m: _sorted_block(m, 0, r[1]),
    "selection_sort": lambda r, m: _sorted_block(m, 16, r[1]),
    "linear_search": lambda r, m: {"R6": m[:r[2]].index(42), "R7": -1 if 99 not in m[:r[2]] else None},
    "binary_search": lambda r, m: {"R6": m[:r[2]].index(68), "R7": -1 if 50 not in m[:r[2]] else None},
    "array_sum": lambda r, m: {"R0": sum(m[r[1]:r[1] + r[2]])},
    "array_max": lambda r, m: {"R0": max(m[8:8 + r[2]]), "R4": m[8:8 + r[2]].index(max(m[8:8 + r[2]]))},
    "array_reverse": lambda r, m: {("mem", i): v for i, v in enumerate(m[:r[1]][::-1])},
    "array_copy": lambda r, m: {("mem", r[2] + i): m[r[1] + i] for i in range(r[3])},
    "prefix_sums": lambda r, m: {("mem", i): sum(m[:i + 1]) for i in range(r[1])},
    "palindrome": lambda r, m: {"R6": _is_palindrome(m[0:7]), "R7": _is_palindrome(m[16:20])},
    "number_palindrome": lambda r, m: {"R2": int(str(r[1])[::-1]), "R0": int(str(r[1]) == str(r[1])[::-1])},
    "digit_sum": lambda r, m: {"R0": sum(map(int, str(r[1]))), "R2": len(str(r[1]))},
    "ackermann": lambda r, m: {"R6": _ackermann(2, 3), "R7": _ackermann(3, 3)},
    "hanoi": lambda r, m: _hanoi(r[0], r[1], r[2], r[3]),
    "stack_reverse": lambda r, m: {("mem", i): v for i, v in enumerate(m[:6][::-1])},
    "fnv1a": lambda r, m: _fnv1a(m[r[1]:r[1] + r[2]]),
    "adler32": lambda r, m: {"R0": zlib.adler32(bytes(m[r[1]:r[1] + r[2]]))},
    "xorshift32": lambda r, m: _xorshift(r[0], 5),
    "mul_overflow": lambda r, m: {"R0": wrap(65536 * 65536), "R1": wrap(2**31 - 1 + 1),
                                  "R2": wrap(math.factorial(13)), "R3": wrap(46341**2),
                                  "R4": wrap(-(2**31) * -1)},
    "div_mod_signs": lambda r, m: {("mem", i): v for i, v in enumerate(
        [_c_div(a, b) for a, b in ((7, 2), (-7, 2), (7, -2), (-7, -2))]
        + [a - _c_div(a, b) * b for a, b in ((7, 2), (-7, 2), (7, -2), (-7, -2))])},
    "signed_unsigned_compare": lambda r, m: {"R0": int(r[6] < r[7]), "R1": int(r[6] % 2**32 < r[7] % 2**32),
                                             "R2": int(r[6] % 2**32 > r[7] % 2**32), "R3": int(r[6] > r[7])},
    "nested_loops": lambda r, m: {"R0": sum(i * j for i in range(1, 11) for j in range(1, 11))},
    "matrix_multiply": lambda r, m: _matmul(m),
    "max_subarray": lambda r, m: {"R0": _kadane(m[:r[2]])},
    "xor_swap": lambda r, m: {"R1": r[2], "R2": r[1]},
    "wide_constants": lambda r, m: {"R0": wrap(0xDEADBEEF), "R3": 1 << 20, "R4": wrap(0xFFFF1234)},
}


def test_every_program_has_an_oracle():
    assert sorted(ORACLES) == sorted(IDS)


# The full bench_loop oracle is 25M Python iterations (seconds): slow only.
ORACLE_PARAMS = [pytest.param(stem, marks=pytest.mark.slow) if stem == "bench_loop" else stem for stem in IDS]


@pytest.mark.parametrize("stem", ORACLE_PARAMS)
def test_declared_results_match_python(stem):
    """The header's expectations agree with an independent Python computation
    (from the full @init, not the quick test setup)."""
    pf = program(stem)
    oracle = ORACLES[stem](list(pf.initial_state.registers), list(pf.initial_state.memory))
    for key, value in oracle.items():
        declared = pf.expect_mem.get(key[1]) if isinstance(key, tuple) else pf.expect.get(key)
        assert declared == value, f"{stem}: {key} declared {declared}, Python says {value}"


def test_bench_loop_quick_expectation_matches_python():
    pf = program("bench_loop")
    assert pf.test_expect["R1"] == _bench(pf.test_initial_state.registers[0])["R1"]


def test_bench_loop_full_run_in_compiled_engine():
    """The full 150M-step run, in the compiled engine (about a second)."""
    pf = program("bench_loop")
    state = get_engine("compute").run(pf.program.words, pf.fresh_state(), pf.max_steps)
    assert expectation_failures(pf, state) == []


# -- the header format ---------------------------------------------------------

HEADER = """\
; @name demo
; @description adds two numbers
; @init R0=0x10 r1=-2 sp=8 C=1
; @mem-size 16
; @mem 4: 1 0b11 -1 0xFFFFFFFF   ; a trailing comment
; @max-steps 50
; @expect R2=14 halted=1 steps=2 C=1
; @expect-mem 4: 1 3
; @test-init R0=0
; @test-expect R2=-2
        ADD R2, R0, R1
        HALT
"""


def test_header_parses_every_directive():
    pf = parse_program_file(HEADER, "demo.asm")
    assert (pf.name, pf.description, pf.max_steps) == ("demo", "adds two numbers", 50)
    state = pf.fresh_state()
    assert state.registers[:2] == [16, -2] and state.sp == 8 and state.c and not state.z
    assert len(state.memory) == 16 and state.memory[4:8] == [1, 3, -1, -1]
    assert pf.expect == {"R2": 14, "halted": 1, "steps": 2, "C": 1}
    assert pf.expect_mem == {4: 1, 5: 3}
    assert pf.fresh_state(test=True).registers[:2] == [0, -2]
    assert pf.expectations(test=True) == {"R2": -2, "halted": 1, "steps": 2, "C": 1}


def test_defaults():
    pf = parse_program_file("HALT\n", "bare.asm")
    assert pf.name == "bare" and pf.max_steps == DEFAULT_MAX_STEPS
    assert len(pf.initial_state.memory) == 1024 and pf.expect == {} and not pf.has_test_overrides


def test_expectation_failures_name_what_differs():
    pf = parse_program_file(HEADER, "demo.asm")
    state = get_engine("reference").run(pf.program.words, pf.fresh_state(), pf.max_steps)
    assert expectation_failures(pf, state) == []
    state.registers[2] = 15
    state.memory[5] = 0
    state.c = False
    assert expectation_failures(pf, state) == [
        "R2: expected 14, got 15", "C: expected 1, got 0", "mem[5]: expected 3, got 0"]


@pytest.mark.parametrize("text, line, reason", [
    ("; @name x\n; @bogus 1\nHALT\n", 2, "unknown directive"),
    ("; @init R8=1\nHALT\n", 1, "KEY=VALUE"),
    ("; @init R0=zz\nHALT\n", 1, "expected an integer"),
    ("; @init R0=0x100000000\nHALT\n", 1, "not a 32-bit word"),
    ("; @init R0=1 R0=2\nHALT\n", 1, "given twice"),
    ("; @expect Z=2\nHALT\n", 1, "must be 0 or 1"),
    ("; @mem-size 8\n; @mem 6: 1 2 3\nHALT\n", 2, "outside memory"),
    ("; @mem 3 1 2\nHALT\n", 1, "ADDRESS: WORD"),
    ("; @max-steps 0\nHALT\n", 1, "at least 1"),
    ("HALT\n; @expect R0=1\n", 2, "after the first line of code"),
    ("; @test-init R0=1\nHALT\n", 1, "go together"),
    ("; @name x\n\n  ADD R0, R0\n", 3, "column 3"),
])
def test_parse_errors_name_file_and_line(text, line, reason):
    with pytest.raises(ProgramFileError) as caught:
        parse_program_file(text, "bad.asm")
    assert caught.value.path == "bad.asm" and caught.value.line == line
    assert reason in str(caught.value) and str(caught.value).startswith(f"bad.asm:{line}:")
