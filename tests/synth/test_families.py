"""Each search family, run alone in-process, solves easy problems; every
answer is checked on the reference engine and as Python."""

import math

import pytest
from synth_helpers import spec_of

from ncpu.synth import parse_spec, solve_in_process

PAIRS = [(3, 5), (100, -7), (8, 8), (-5, -9), (1 << 30, 1 << 30), (0, 1)]


def _solve(spec, family, timeout=30):
    result = solve_in_process(spec, family, timeout, engine="reference")
    assert result.solved, family
    assert result.solver == family
    return result


@pytest.mark.parametrize("f", [lambda a, b: a + b, lambda a, b: (a & b) + ((a ^ b) >> 1), lambda a, b: a * 3 - b])
def test_enumerative(f):
    _solve(spec_of(f, PAIRS), "enumerative")


def test_enumerative_several_outputs_and_memory():
    _solve(spec_of(lambda a, b: (a + b, a - b), PAIRS, n_out=2), "enumerative")
    spec = parse_spec({"inputs": ["R0"], "outputs": ["R0"], "examples": [
        {"in": [b], "out": [sum(v)], "memory_in": {"base": b, "values": v}}
        for b, v in [(100, [1, 2, 3, 4]), (200, [-5, 9, 0, 7]), (150, [10, 20, 30, 40])]]})
    _solve(spec, "enumerative")


def test_stochastic():
    _solve(spec_of(lambda a, b: a + b + 1, PAIRS), "stochastic")


def test_gradient():
    _solve(spec_of(lambda a, b: a ^ b, PAIRS), "gradient", timeout=60)


def test_sketch_loops():
    _solve(spec_of(math.factorial, [(i,) for i in (0, 1, 2, 3, 5, 7, 10)]), "sketch")
    _solve(spec_of(math.gcd, [(12, 18), (7, 5), (100, 75), (9, 3), (17, 34), (0, 5)]), "sketch")


def test_sketch_array_max():
    examples = [{"in": [b, len(v)], "out": [max(v)], "memory_in": {"base": b, "values": v}}
                for b, v in [(100, [1, 9, 3]), (200, [-5, -9]), (300, [4, 4, 8, -1, 2])]]
    _solve(parse_spec({"inputs": ["R0", "R1"], "outputs": ["R0"], "examples": examples}), "sketch")


def test_sketch_branch_with_two_outputs():
    pairs = [(3, 5), (100, -7), (8, 8), (-5, -9), (0, 1), (7, -700)]
    _solve(spec_of(lambda a, b: (min(a, b), max(a, b)), pairs, n_out=2), "sketch")


def test_sketch_counted_loop_fibonacci():
    def fib(n):
        a, b = 0, 1
        for _ in range(n):
            a, b = b, a + b
        return a

    _solve(spec_of(fib, [(i,) for i in (0, 1, 2, 3, 5, 8, 11, 12)]), "sketch")
