"""Every engine against the reference on random programs and random states.

A failure names the seed: `random_case(seed)` / `random_program(seed)`
rebuild the exact case.
"""

from __future__ import annotations

import random

import pytest
from machine_helpers import assert_batches_equal, engine

from ncpu.machine import reference
from ncpu.machine.random_programs import random_batch, random_case, random_program
from ncpu.machine.state import BatchState

BUDGET = 300


def _single(mode: str, seeds: range) -> None:
    run = engine(mode).run
    for seed in seeds:
        words, state = random_case(seed)
        want = reference.run(words, state, BUDGET)
        got = run(words, state, BUDGET)
        assert got == want, f"{mode} differs from reference on random_case({seed})"


def _batched(mode: str, seeds: range, max_batch: int) -> None:
    run_batch = engine(mode).run_batch
    for seed in seeds:
        rng = random.Random(seed)
        words = random_program(rng)
        batch = random_batch(rng, rng.randint(1, max_batch), program_length=len(words))
        before = batch.copy()
        want = reference.run_batch(words, batch, BUDGET)
        got = run_batch(words, batch, BUDGET)
        assert_batches_equal(want, got, f"{mode} batch seed {seed}")
        assert_batches_equal(before, batch, f"{mode} modified its input, seed {seed}")


def test_compute_single_matches_reference():
    _single("compute", range(2000))


def test_compute_batch_matches_reference():
    _batched("compute", range(40), 64)


def test_fast_single_matches_reference():
    _single("fast", range(10_000, 10_400))


def test_fast_batch_matches_reference():
    _batched("fast", range(20_000, 20_040), 64)


def test_compute_serial_and_parallel_agree():
    from ncpu.machine import compute

    words = random_program(7, segments=10)
    batch = random_batch(7, 257, program_length=len(words))
    assert_batches_equal(compute.run_batch(words, batch, 5000, parallel=False),
                         compute.run_batch(words, batch, 5000, parallel=True), "serial vs parallel")


def test_resuming_equals_one_long_run():
    """Budgets compose: 120 + 180 steps from where the first stopped is 300."""
    for mode in ("compute", "fast"):
        run = engine(mode).run
        for seed in range(40):
            words, state = random_case(seed)
            assert run(words, run(words, state, 120), 180) == reference.run(words, state, 300), (mode, seed)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["compute", "fast"])
def test_sweep_single(mode):
    _single(mode, range(100_000, 100_000 + (50_000 if mode == "compute" else 3_000)))


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["compute", "fast"])
def test_sweep_batched(mode):
    _batched(mode, range(200_000, 200_300), 128)


@pytest.mark.slow
def test_fast_large_batch_long_budget():
    from ncpu.machine import compute, fast

    words = random_program(11, segments=12)
    batch = random_batch(11, 4096, mem_size=64, program_length=len(words))
    assert_batches_equal(compute.run_batch(words, batch, 2000), fast.run_batch(words, batch, 2000), "B=4096")


def test_batch_state_roundtrip_keeps_identity():
    words, state = random_case(3)
    assert BatchState.stack([state]).machine(0) == state
