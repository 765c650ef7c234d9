"""Every MUXLEQ engine against the reference on random machines, batched:
the whole final state (memory, pc, steps, halt, unread input, output)."""

from __future__ import annotations

import pytest

from ncpu.muxleq import reference
from ncpu.muxleq.engines import ENGINES, get_engine
from ncpu.muxleq.random_programs import random_states
from ncpu.muxleq.state import MuxleqBatch

from muxleq_helpers import same_batch, same_machine

FASTER = [mode for mode in ENGINES if mode != "reference"]


@pytest.fixture(scope="module")
def batch() -> MuxleqBatch:
    return MuxleqBatch.stack(random_states(seed=16, count=256))


@pytest.fixture(scope="module")
def expected(batch) -> MuxleqBatch:
    return reference.run_batch(batch, 400)


def test_the_random_machines_cover_every_case(batch, expected):
    # every kind of instruction executes somewhere, and machines end in all three ways
    waiting = [m.waiting_for_input for m in expected.unstack()]
    running = [not (h or w) for h, w in zip(expected.halted, waiting)]
    assert any(waiting) and expected.halted.any() and any(running)
    assert any(expected.outputs) and any(len(i) < len(j) for i, j in zip(expected.inputs, batch.inputs))


@pytest.mark.parametrize("mode", FASTER)
def test_batched_engines_match_the_reference(mode, batch, expected):
    assert same_batch(get_engine(mode).run_batch(batch, 400), expected) == {}


@pytest.mark.parametrize("mode", FASTER)
def test_single_machine_runs_match_the_reference(mode, batch, expected):
    for i in range(0, 256, 32):
        assert same_machine(get_engine(mode).run(batch.machine(i), 400), expected.machine(i)) == []


@pytest.mark.parametrize("mode", ENGINES)
def test_a_run_resumes_exactly_where_it_stopped(mode, batch, expected):
    engine = get_engine(mode)
    for i in (1, 5, 9):
        part = engine.run(batch.machine(i), 137)
        assert same_machine(engine.run(part, 400 - 137), expected.machine(i)) == []


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8))
def test_many_more_random_machines(seed):
    batch = MuxleqBatch.stack(random_states(seed=1000 + seed, count=512, instructions=60, data=60))
    expected = reference.run_batch(batch, 2000)
    for mode in FASTER:
        assert same_batch(get_engine(mode).run_batch(batch, 2000), expected) == {}, mode
