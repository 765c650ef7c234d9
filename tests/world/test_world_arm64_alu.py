"""The ARM64 exact_alu variant (`arm64_alu.py`): the ARM64 CPU's executor, read
from decoded states, gives what the machine computes, and the pc after a
step is one of the two addresses it offers; a model holding it
(the shipped one; a tiny one trained for seconds in the slow suite) beats
"no change" on held-out programs and scores injected ALU faults above the
same steps run clean."""

import numpy as np
import pytest
import torch

from ncpu.world import arm64
from ncpu.world.arm64_alu import Arm64ExactALU, next_pcs
from ncpu.world.arm64_eval import _transitions
from ncpu.world.model import WorldConfig
from ncpu.world.train import TrainConfig, load_model, train

import world_checks

TINY_ALU = WorldConfig(words=arm64.WORDS, word_bits=64, action_bits=32, word_latent=64, byte_hidden=32,
                       action_embed=48, core_hidden=128, key=16, probe_hidden=32, exact_alu=True, target="arm64")


def test_the_executor_reading_true_states_gives_what_the_machine_wrote():
    before, words, after = _transitions(arm64.random_traces("eval", 10**9, 40))
    result, nzcv = Arm64ExactALU()(before, words)
    alu = arm64.instruction_class(words) == 0
    writes = np.array([arm64.destination(int(w)) is not None for w in words])
    rd = np.array([arm64.destination(int(w)) or 0 for w in words])
    rows = np.arange(len(words))
    assert (alu & writes).sum() > 500 and (alu & ~writes).sum() > 20  # CMP, CMN: flags only
    assert np.array_equal(result[alu & writes], after[rows, rd][alu & writes])
    assert np.array_equal(nzcv[alu], after[alu, arm64.NZCV_COL])
    # Branches are not executed: no result, the flags as they were.
    assert not result[~alu].any() and np.array_equal(nzcv[~alu], before[~alu, arm64.NZCV_COL])


def test_the_candidates_are_the_executor_words_as_bits():
    before, words, after = _transitions(arm64.random_traces("eval", 10**9 + 7, 10))
    module = Arm64ExactALU()
    bits = torch.from_numpy(arm64.state_bits(before)).view(len(words), arm64.WORDS, 64) > 0.5
    candidates = module.candidates(bits, torch.from_numpy(arm64.action_bits(words)))
    result, nzcv = module(before, words)
    assert candidates.shape == (len(words), 4, 64)
    fall_through, target = next_pcs(before[:, arm64.PC_COL], words)
    expected = np.stack([result, nzcv, fall_through, target], 1)
    assert np.array_equal((expected[..., None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1), candidates.numpy())
    # The pc after every step is one of the two addresses; which one is left to the model.
    assert ((after[:, arm64.PC_COL] == fall_through) | (after[:, arm64.PC_COL] == target)).all()
    assert (fall_through != target).sum() > 20


@pytest.fixture(scope="module")
def shipped_alu():
    from ncpu.world import WEIGHTS
    model, checkpoint = load_model(WEIGHTS / "world_arm64_alu.pt")
    assert checkpoint["target"] == "arm64" and checkpoint["config"]["exact_alu"]
    return model


def test_the_shipped_arm64_exact_alu_model_beats_no_change_and_sees_faults(shipped_alu):
    world_checks.arm64_beats_no_change_and_sees_faults(shipped_alu, most=0.95)


@pytest.mark.slow
def test_a_tiny_arm64_exact_alu_model_beats_no_change_and_sees_faults(tmp_path):
    torch.set_num_threads(1)
    path = tmp_path / "tiny_alu.pt"
    tc = TrainConfig(steps=400, batch=32, programs_per_refresh=150, refresh_every=200, lr=2e-3, max_trace_steps=64,
                     checkpoint_every=1000, calibration_programs=20, error_rate_programs=30, trip_programs=100,
                     trip_steps=50)
    train(tc, TINY_ALU, path, target="arm64")
    model, checkpoint = load_model(path)
    assert checkpoint["config"]["exact_alu"] and checkpoint["step"] == 400
    world_checks.arm64_beats_no_change_and_sees_faults(model, most=0.8)
