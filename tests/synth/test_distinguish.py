"""The honesty of a result: an answer that is not exact on inputs drawn like
its examples is flagged (a rival program that fits the examples and
differs there is found, `synth/distinguish.py`), disagreements only on edge
words outside the examples' range are reported as such, and equal-length
programs are ordered by Occam's razor."""

import time

from ncpu.commands.bench_synth import generalisation
from ncpu.synth.benchmarks import load_suite
from ncpu.synth.distinguish import rival, search
from ncpu.synth.portfolio import LIKE_EXAMPLES, Shortest, SynthResult, accept
from ncpu.synth.ranking import literals, rank, weight
from ncpu.synth.verify import count_instructions, domain_inputs, outputs_on

from synth_helpers import spec_of

# The met program the race returned for mean_floor_small: right unless both inputs are odd.
HALVES = "SAR R0, R0, 1\nSAR R1, R1, 1\nADD R0, R0, R1\nHALT"


def _problem(name):
    return next(p for p in load_suite() if p.name == name)


def test_inputs_like_the_examples_keep_their_range_and_magnitudes():
    small = spec_of(lambda a, b: a + b, [(-900, 3), (17, -640), (512, 999), (-4, 0)])
    rows = domain_inputs(small, 300)
    # (the same bit length as 999 reaches 1023)
    assert len(rows) == 300 and all(-1024 < a < 1024 and -1024 < b < 1024 for a, b in rows)
    assert not {tuple(r) for r in rows} & {(-900, 3), (17, -640), (512, 999), (-4, 0)}
    # Words with many leading zeros stay such words: bit lengths as in the examples.
    narrow = spec_of(lambda x: x, [(5,), (300,), (70_000,)])
    assert all(0 < x < 1 << 17 for (x,) in domain_inputs(narrow, 100))


def test_the_floor_average_of_halves_is_not_passed_off_as_exact():
    problem = _problem("mean_floor_small")
    assert accept(HALVES.splitlines(), problem.spec) and generalisation(problem, HALVES, 500) < 1.0
    lines = rival(problem.spec, HALVES, time.monotonic() + 120)
    assert lines is not None and accept(lines, problem.spec)
    assert generalisation(problem, "\n".join(lines), 500) == 1.0  # here the rival is (a + b) >> 1
    # The race left only the met program: the result is flagged, with an input like the examples.
    best = Shortest(time.monotonic() + 120)
    best.offer(SynthResult(True, HALVES), time.monotonic())
    assert best.disagreement(problem.spec) is None
    best.look_for_rival(problem.spec, time.monotonic() + 120)
    found = best.disagreement(problem.spec)
    assert best.underdetermined(problem.spec) and found["where"] == LIKE_EXAMPLES
    a, b = found["in"]
    assert -1000 <= a <= 1000 and -1000 <= b <= 1000 and a % 2 == b % 2 == 1
    assert found["outputs"][0] != found["outputs"][1]


def test_no_rival_for_an_answer_the_examples_pin_down():
    spec = spec_of(lambda a, b: (a + b) >> 1, [(-389, -104), (-321, -453), (815, -421), (553, 205), (-172, 27),
                                               (457, 571), (-718, 779), (579, 741), (217, -743), (-639, 169)])
    answer = "ADD R0, R0, R1\nSAR R0, R0, 1\nHALT"
    assert accept(answer.splitlines(), spec)
    assert rival(spec, answer, time.monotonic() + 120) is None


def test_equal_length_programs_prefer_fewer_constants():
    spec = spec_of(lambda x: x * 2, [(3,), (-5,), (100,)])
    best = Shortest(time.monotonic() + 10)
    best.offer(SynthResult(True, "SHL R0, R0, 1\nHALT"), time.monotonic())
    best.offer(SynthResult(True, "ADD R0, R0, R0\nHALT"), time.monotonic())
    assert best.result.asm == "ADD R0, R0, R0\nHALT"
    assert literals("MOV R1, 3\nADD R0, R0, 0x10\nLOAD R2, [R0+4]\nADD R0, R0, R1\nHALT") == 3
    # Both compute 2x everywhere: no disagreement.
    assert best.disagreement(spec) is None
    assert outputs_on(best.result.asm, spec, [[7]]) == [(True, 14)]


# P1 as the race returned it: x & MULHU(x, -1), which is x & (x - 1) everywhere.
P1_MULHU = ("SHR R1, R0, 16\nMOV R2, -1\nSHR R3, R2, 16\nMUL R4, R1, R3\nMOV R5, 65535\nAND R2, R2, R5\n"
            "MUL R1, R1, R2\nAND R6, R0, R5\nMUL R2, R6, R2\nSHR R2, R2, 16\nADD R1, R1, R2\nSHR R2, R1, 16\n"
            "ADD R2, R4, R2\nAND R1, R1, R5\nMUL R3, R6, R3\nADD R1, R1, R3\nSHR R1, R1, 16\nADD R1, R2, R1\n"
            "AND R0, R1, R0\nHALT")


def test_a_simpler_program_that_agrees_with_the_answer_replaces_it():
    problem = _problem("hd01_turn_off_rightmost_one")
    assert accept(P1_MULHU.splitlines(), problem.spec)
    found = search(problem.spec, P1_MULHU, time.monotonic() + 120)
    # (Unbounded, it also finds a rival: x & (x + (-1 mod x)), wrong at 1.)
    assert found.simpler is not None
    assert count_instructions("\n".join(found.simpler)) == 2 and "MUL" not in "\n".join(found.simpler)
    best = Shortest(time.monotonic() + 120)
    best.offer(SynthResult(True, P1_MULHU, "", "enumerative"), time.monotonic())
    best.look_for_rival(problem.spec, time.monotonic() + 120)
    assert best.result.asm == "\n".join(found.simpler) and best.result.solver == "enumerative"
    assert generalisation(problem, best.result.asm, 500) == 1.0


def test_equal_length_programs_prefer_cheaper_operations():
    shift, multiply = "MOV R1, 1\nSHL R0, R0, R1\nHALT", "MOV R1, 2\nMUL R0, R0, R1\nHALT"
    assert weight(multiply) > weight(shift) and rank(shift) < rank(multiply)
    best = Shortest(time.monotonic() + 10)
    best.offer(SynthResult(True, multiply), time.monotonic())
    best.offer(SynthResult(True, shift), time.monotonic())
    assert best.result.asm == shift
