"""The chance-fit test (`distinguish._ChanceTest`): an answer that programs
of its size could fit by coincidence is flagged even when no rival is in
hand. byte_count_bits_set_low (the popcount of the low nibble, ten examples
with outputs 0-3) came back as `mulhu(x, 263) & 3`, right on 23% of unseen
inputs and unflagged: no other program of up to three operations fits
those examples, but 52 of the 25,200 rearrangements of their outputs are
computed by such programs."""

import math
import time

import numpy as np

from ncpu.commands.bench_synth import generalisation
from ncpu.synth import Portfolio
from ncpu.synth.benchmarks import load_suite
from ncpu.synth.distinguish import CHANCE_LEVEL, arrangements, chance_testable, search
from ncpu.synth.portfolio import accept

from synth_helpers import spec_of

# The program the race returned for byte_count_bits_set_low: 3 & mulhu(x, 8 + 255).
MULHU_263 = """SHR R1, R0, 16
MOV R2, 8
ADD R2, R2, 255
SHR R3, R2, 16
MUL R4, R1, R3
MOV R5, 65535
AND R2, R2, R5
MUL R1, R1, R2
AND R0, R0, R5
MUL R2, R0, R2
SHR R2, R2, 16
ADD R1, R1, R2
SHR R2, R1, 16
ADD R2, R4, R2
AND R1, R1, R5
MUL R0, R0, R3
ADD R0, R1, R0
SHR R0, R0, 16
ADD R0, R2, R0
AND R0, R0, 3
HALT"""


def _problem(name):
    return next(p for p in load_suite() if p.name == name)


def test_arrangements_is_the_multinomial_coefficient():
    assert arrangements([0, 3, 1, 0, 3, 2, 2, 2, 1, 0]) == math.factorial(10) // (6 * 2 * 6 * 2) == 25_200
    assert arrangements([5, 5, 5]) == 1 and arrangements(list(range(10))) == math.factorial(10)


def test_the_nibble_popcount_chance_fit_has_a_high_p_value():
    problem = _problem("byte_count_bits_set_low")
    assert accept(MULHU_263.splitlines(), problem.spec) and generalisation(problem, MULHU_263, 500) < 0.5
    assert chance_testable(problem.spec)
    found = search(problem.spec, MULHU_263, time.monotonic() + 120)
    assert found.rival is None  # nothing of up to three operations to disagree with it
    assert found.chance is not None and found.chance > CHANCE_LEVEL


def test_distinct_word_outputs_are_not_fitted_by_chance():
    """x & (x - 1) on ten random words: the outputs' 10! rearrangements are
    out of reach of every small program but the answer's own."""
    rng = np.random.default_rng(3)
    xs = [(int(v),) for v in rng.integers(-2**31, 2**31, 10)]
    spec = spec_of(lambda x: x & (x - 1), xs)
    found = search(spec, "ADDI R1, R0, -1\nAND R0, R0, R1\nHALT", time.monotonic() + 60)
    assert found.rival is None and found.chance is not None and found.chance == 1 / math.factorial(10)


def test_the_race_never_returns_the_nibble_popcount_inexact_and_unflagged():
    """The whole path, as the benchmark runs it (enumeration, the search
    after the race, the flag): exact, or flagged underdetermined with the
    chance-fit p-value that says why."""
    problem = _problem("byte_count_bits_set_low")
    with Portfolio(["enumerative"]) as portfolio:
        result = portfolio.solve(problem.spec, 20, use_cache=False)
    assert result.solved
    exact = generalisation(problem, result.asm, 5000) == 1.0
    assert exact or (result.underdetermined and result.chance_fit is not None and result.chance_fit > CHANCE_LEVEL)
