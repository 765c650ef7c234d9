"""The neural and tensor engines on a CUDA device, against the CPU reference.

The project is device-agnostic: every torch path takes a `device`. These tests
run those paths on a GPU and compare with the exact CPU results; on a machine
without CUDA there is nothing to run them on, so the module is skipped (the same
code paths run on CPU in the rest of the suite). Run them on a GPU machine with
`python -m pytest -q tests/test_cuda.py`.
"""
from __future__ import annotations

import os
import random

import numpy as np

import pytest
import torch

# NCPU_TEST_DEVICE=cpu runs the same checks on the CPU (to check the tests themselves).
DEVICE = os.environ.get("NCPU_TEST_DEVICE", "cuda")
pytestmark = pytest.mark.skipif(DEVICE == "cuda" and not torch.cuda.is_available(), reason="needs a CUDA device")
BUDGET = 300


def test_alu_verification_passes_on_the_device():
    from ncpu.alu.verify import verify
    failed = [c for c in verify(samples=20_000, device=DEVICE) if not c.ok]
    assert failed == []


@pytest.mark.parametrize("op", ["ADD", "SUB", "MUL", "DIV", "MOD", "AND", "OR", "XOR", "SHL", "SHR", "SAR"])
def test_dense_alu_on_the_device_equals_the_semantics(op):
    from ncpu.isa.semantics import BINARY
    from ncpu.machine.neural import dense_alu
    rng = random.Random(op)
    a = [rng.choice([0, 1, -1, 2**31 - 1, -2**31, rng.randrange(-2**31, 2**31)]) for _ in range(4096)]
    b = [rng.choice([0, 1, -1, 31, 32, rng.randrange(-2**31, 2**31)]) for _ in range(4096)]
    dense = dense_alu("trained", DEVICE)
    got = dense.compute(op, torch.tensor(a, device=DEVICE), torch.tensor(b, device=DEVICE)).cpu().tolist()
    assert got == [BINARY[op](x, y) for x, y in zip(a, b)]


@pytest.mark.parametrize("mode", ["fast", "neural"])
def test_ncpu_engines_on_the_device_match_the_reference(mode):
    from ncpu.machine import fast, neural, reference
    from ncpu.machine.random_programs import random_batch, random_program
    run_batch = {"fast": fast.run_batch, "neural": neural.run_batch}[mode]
    for seed in range(8):
        rng = random.Random(seed)
        words = random_program(rng)
        batch = random_batch(rng, 256, program_length=len(words))
        want = reference.run_batch(words, batch, BUDGET)
        got = run_batch(words, batch, BUDGET, device=DEVICE)
        for name in ("registers", "memory", "flags", "pc", "sp", "steps", "halted"):
            assert np.array_equal(getattr(got, name), getattr(want, name)), f"{mode} {name}, seed {seed}"


@pytest.mark.parametrize("mode", ["fast", "neural"])
def test_muxleq_engines_on_the_device_match_the_reference(mode):
    from ncpu.muxleq import reference
    from ncpu.muxleq.engines import get_engine
    from ncpu.muxleq.random_programs import random_states
    from ncpu.muxleq.state import MuxleqBatch
    batch = MuxleqBatch.stack(random_states(seed=16, count=256))
    want = reference.run_batch(batch, 400)
    got = get_engine(mode).run_batch(batch, 400, device=DEVICE)
    for g, w in zip(got.unstack(), want.unstack()):
        assert (g.pc, g.steps, g.halted, g.input, g.output) == (w.pc, w.steps, w.halted, w.input, w.output)
        assert (g.memory == w.memory).all()


def test_neural_display_on_the_device_equals_the_cpu_frame():
    from ncpu.display.networks import NeuralDisplay, to_bits
    from ncpu.display.screen import CELLS
    codes = to_bits(torch.arange(CELLS) % 256, 8)
    display = NeuralDisplay()
    cpu = display.glyphs(codes)
    gpu = display.to(DEVICE).glyphs(codes.to(DEVICE)).cpu()
    assert torch.equal(cpu, gpu)
