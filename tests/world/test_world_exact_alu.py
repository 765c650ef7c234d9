"""The exact_alu variant and the balanced training programs: the frozen ALU
module agrees with the exact machine when it reads true states, balanced
programs meet every opcode and both outcomes of every condition, and a tiny
exact_alu model trained for seconds beats "no change" on held-out programs
and scores injected ALU faults above clean steps."""

import numpy as np
import pytest
import torch

from ncpu.isa.opcodes import OPCODES as ALL_OPCODES
from ncpu.world.alu_module import ExactALUModule
from ncpu.world.balanced import balanced_traces
from ncpu.world.evaluate import Transitions
from ncpu.world.features import CONDITIONAL, OPCODES, WRITES_REGISTER, action_bits, instruction_class
from ncpu.world.model import WorldConfig
from ncpu.world.traces import split_of
from ncpu.world.train import TrainConfig, load_model, train

import world_checks

TINY_ALU = WorldConfig(word_latent=32, byte_hidden=32, action_embed=48, core_hidden=128, key=16, probe_hidden=32,
                       exact_alu=True)
NAME = {op.code: op.mnemonic for op in ALL_OPCODES}


def test_balanced_programs_meet_every_opcode_and_both_outcomes_of_every_condition():
    traces = balanced_traces("train", 0, 600)
    assert all(split_of(t.words) == "train" for t in traces)
    seen = {NAME[int(op)] for t in traces for op in t.actions[:, 0]}
    assert seen == {op.mnemonic for op in OPCODES}
    outcomes = {name: set() for name in CONDITIONAL}
    for t in traces:
        for j in range(len(t)):
            name = NAME[int(t.actions[j, 0])]
            if name in CONDITIONAL and t.actions[j, 4] != t.states[j, 12] + 1:
                outcomes[name].add(bool(t.states[j + 1, 12] == t.actions[j, 4]))
    assert all(found == {True, False} for found in outcomes.values()), outcomes


def test_the_alu_module_reading_true_states_matches_the_machine():
    # Fed the exact registers and flags, the module's result is the register
    # every ALU (and MOV/MOVT) instruction writes, and its flags word is the
    # machine's flags after every instruction that sets them from the ALU.
    data = Transitions.of(balanced_traces("eval", 0, 300))
    module = ExactALUModule()
    result, flags = module(torch.from_numpy(data.before[:, :8]), torch.from_numpy(data.before[:, 8:12] > 0),
                           torch.from_numpy(action_bits(data.action)))
    result, flags = result.numpy(), flags.numpy()
    rows = np.arange(len(data.action))
    alu = (instruction_class(data.action[:, 0]) == 0) & WRITES_REGISTER[data.action[:, 0]]
    assert alu.sum() > 1000
    assert np.array_equal(result[alu], data.after[rows, data.action[:, 1]][alu])
    compare = np.isin([NAME[int(op)] for op in data.action[:, 0]], ("CMP", "CMPI"))
    observed_flags = (data.after[:, 8:12] << np.arange(4)).sum(1)
    assert compare.sum() > 50 and np.array_equal(flags[alu | compare], observed_flags[alu | compare])


@pytest.fixture(scope="module")
def tiny_alu(tmp_path_factory):
    torch.set_num_threads(1)
    path = tmp_path_factory.mktemp("world_alu") / "tiny_alu.pt"
    tc = TrainConfig(steps=300, batch=64, programs_per_refresh=150, refresh_every=150, lr=2e-3,
                     checkpoint_every=100, calibration_programs=40, error_rate_programs=150,
                     trip_programs=300, trip_steps=50, balanced_programs=500)
    train(tc, TINY_ALU, path)
    return path


def test_a_tiny_exact_alu_model_beats_no_change_on_held_out_programs(tiny_alu):
    model, checkpoint = load_model(tiny_alu)
    assert checkpoint["config"]["exact_alu"] and checkpoint["step"] == 300
    world_checks.beats_no_change_on_held_out_programs(model)


def test_a_tiny_exact_alu_model_scores_injected_alu_faults_above_clean_steps(tiny_alu):
    model, _ = load_model(tiny_alu)
    world_checks.scores_injected_alu_faults_above_clean_steps(model)


def test_exact_alu_training_resumes_from_its_checkpoint(tmp_path):
    torch.set_num_threads(1)
    path = tmp_path / "w.pt"
    tc = TrainConfig(steps=4, batch=8, programs_per_refresh=10, refresh_every=2, checkpoint_every=2,
                     use_corpus=False, calibration_programs=5, error_rate_programs=5, trip_programs=60,
                     trip_steps=2, balanced_programs=20)
    train(tc, TINY_ALU, path)
    assert torch.load(path, weights_only=False)["step"] == 4
    train(TrainConfig(**{**tc.__dict__, "steps": 6}), TINY_ALU, path, resume=True)
    saved = torch.load(path, weights_only=False)
    assert saved["step"] == 6 and saved["config"]["exact_alu"]
    assert any(name.startswith("predictor.alu_") for name in saved["model"])
