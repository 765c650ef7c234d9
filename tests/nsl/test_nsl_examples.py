"""Every bundled nsl program, compiled and run on every engine: the output and
exit status must equal the expected ones (the .out file), which the
reading interpreter also produces."""

from __future__ import annotations

import pytest
import torch

from nsl_examples import load_examples
from ncpu.nsl.interpreter import interpret
from ncpu.pipeline.stages import build, execute

EXAMPLES = load_examples()
# The fast engine runs one machine at a few thousand steps a second: the
# default suite gives it the programs under this many steps, the slow test all.
FAST_SHORT = 1_500


def test_there_are_at_least_thirty_examples():
    assert len(EXAMPLES) >= 30


@pytest.mark.parametrize("example", EXAMPLES, ids=str)
def test_the_interpreter_prints_the_expected_output(example):
    outcome = interpret(example.source, list(example.args))
    assert (outcome.output, outcome.status) == (example.output, example.status)


@pytest.fixture(scope="module")
def built():
    return {example.name: build(example.source, example.name + ".nsl") for example in EXAMPLES}


def check(example, built, engine):
    run = execute(built[example.name], list(example.args), engine)
    assert run.final.halted
    assert run.output == example.output
    assert run.exit_status == example.status
    return run


@pytest.mark.parametrize("engine", ["reference", "compute", "neural"])
@pytest.mark.parametrize("example", EXAMPLES, ids=str)
def test_compiled_programs_print_the_expected_output(example, engine, built):
    torch.set_num_threads(1)
    check(example, built, engine)


def test_engines_agree_on_the_final_state(built):
    """Not only the output: registers, memory, steps and pc are the same."""
    example = next(e for e in EXAMPLES if e.name == "bubble_sort")
    states = [check(example, built, engine).final for engine in ("reference", "compute", "neural")]
    assert states[0] == states[1] == states[2]


def reference_steps(example) -> int:
    return execute(build(example.source), list(example.args), "reference").final.steps


SHORT = [example for example in EXAMPLES if reference_steps(example) <= FAST_SHORT]


def test_most_examples_are_short_enough_for_the_default_suite():
    assert len(SHORT) >= 20


@pytest.mark.parametrize("example", SHORT, ids=str)
def test_fast_engine_short_programs(example, built):
    torch.set_num_threads(1)
    reference = execute(built[example.name], list(example.args), "reference")
    assert check(example, built, "fast").final == reference.final


@pytest.mark.slow
@pytest.mark.parametrize("example", EXAMPLES, ids=str)
def test_fast_engine_every_program(example, built):
    torch.set_num_threads(1)
    reference = execute(built[example.name], list(example.args), "reference")
    assert check(example, built, "fast").final == reference.final
