"""The compiler optimizer's network, with the shipped weights, on nsl programs it never saw."""

from __future__ import annotations

import pytest

pytest.importorskip("cvc5")

from ncpu.os import compiler_opt  # noqa: E402
from ncpu.os.nets.optimizer import split  # noqa: E402


def test_the_split_is_by_program_and_keeps_a_third_out():
    names = sorted(compiler_opt.examples())
    training, held = split(names)
    assert not set(training) & set(held)
    assert set(training) | set(held) == set(names)
    assert 8 <= len(held) <= len(names) // 2


def check(figures, which):
    t = figures["totals"]
    assert t["neural_instructions"] < t["instructions"]
    assert t["neural_steps"] < t["steps"]
    assert all(t[f"{c}_correct"] for c in which)
    for program in figures["programs"]:
        for c in which:
            assert program[c]["proofs"] in ([], ["unsat"])   # every applied rewrite was proven by the solver
    # the network asks for far fewer checks than trying every candidate
    assert t["neural_guard_calls"] * 10 < t["classical_guard_calls"]


def test_smallest_held_out_programs_get_shorter_and_faster_and_stay_right():
    """The three smallest held-out programs (by source), greedy against the network."""
    found = compiler_opt.examples()
    held = sorted(split(sorted(found))[1], key=lambda name: len(found[name].source))[:3]
    which = ("classical", "neural")
    check(compiler_opt.evaluate(compiler_opt.load(), names=held, which=which), which)


@pytest.mark.slow
def test_every_held_out_program_with_the_oracle():
    which = ("classical", "oracle", "neural")
    figures = compiler_opt.evaluate(compiler_opt.load(), which=which)
    check(figures, which)
    t = figures["totals"]
    assert t["oracle_steps"] <= t["classical_steps"]
