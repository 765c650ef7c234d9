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


@pytest.fixture(scope="module")
def figures():
    net = compiler_opt.load()
    held = split(sorted(compiler_opt.examples()))[1]
    # five held-out programs keep the default suite quick; the benchmark runs them all
    return compiler_opt.evaluate(net, names=held[:5])


def test_held_out_programs_get_shorter_and_faster_and_stay_right(figures):
    t = figures["totals"]
    assert t["neural_instructions"] < t["instructions"]
    assert t["neural_steps"] < t["steps"]
    assert t["neural_correct"] and t["classical_correct"] and t["oracle_correct"]


def test_every_applied_rewrite_was_proven_by_the_solver(figures):
    for program in figures["programs"]:
        for chooser in ("classical", "oracle", "neural"):
            assert program[chooser]["proofs"] in ([], ["unsat"])


def test_the_network_asks_for_far_fewer_proofs_than_the_greedy_baseline(figures):
    t = figures["totals"]
    assert t["neural_guard_calls"] * 10 < t["classical_guard_calls"]
