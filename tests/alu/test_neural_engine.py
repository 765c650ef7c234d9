"""The neural engine against the reference engine on random programs."""

import pytest

from ncpu.machine import neural, reference
from ncpu.machine.random_programs import random_batch, random_case, random_program
from ncpu.machine.state import BatchState


@pytest.mark.parametrize("chunk", range(4))
def test_neural_matches_reference_on_random_programs(chunk):
    for seed in range(chunk * 50, chunk * 50 + 50):
        words, state = random_case(seed)
        assert neural.run(words, state, 200) == reference.run(words, state, 200), seed


def test_neural_batch_matches_reference():
    words = random_program(1234)
    batch = random_batch(1234, 16)
    got = neural.run_batch(words, batch, 200).unstack()
    want = reference.run_batch(words, batch, 200).unstack()
    assert got == want


def test_analytic_weights_engine():
    words, state = random_case(7)
    assert neural.run(words, state, 200, weights="analytic") == reference.run(words, state, 200)
