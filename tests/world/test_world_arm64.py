"""The world model's second target, the ARM64 machine: traces from our ARM64
CPU, the instruction word as action, faults; a tiny model trained for
seconds (slow suite), and the shipped model, beat "no change" on held-out
programs and score injected faults above the same steps run clean."""

import random
import struct

import numpy as np
import pytest
import torch

from ncpu.arm64.cpu import disassemble
from ncpu.world import arm64
from ncpu.world.arm64_eval import _transitions, anomaly_scores, arm64_trip_head_of, evaluate_arm64
from ncpu.world.trips import Latches
from ncpu.world.model import WorldConfig
from ncpu.world.train import TrainConfig, load_model, train

import world_checks

TINY = WorldConfig(words=arm64.WORDS, word_bits=64, action_bits=32, word_latent=64, byte_hidden=32,
                   action_embed=48, core_hidden=128, key=16, probe_hidden=32)
U64 = (1 << 64) - 1


def test_a_hand_written_program_steps_as_the_architecture_says():
    words = [0xD28000A0,  # movz x0, #5
             0x91000C01,  # add x1, x0, #3
             0xF1002022,  # subs x2, x1, #8
             0x54000040,  # b.eq +8 (skips the next)
             0xD2800023,  # movz x3, #1
             0xCB000024]  # sub x4, x1, x0
    start = [7] * 31 + [0x8000, arm64.CODE, 0]
    trace = arm64.Stepper().record(words, start, 20)
    assert len(trace) == 5  # the movz x3 is branched over
    last = trace.states[-1]
    assert [int(v) for v in last[:5]] == [5, 8, 0, 7, 3] and int(last[arm64.NZCV_COL]) == 0b0110  # Z, C
    assert int(last[arm64.PC_COL]) == arm64.CODE + 24 and list(trace.actions) == words[:4] + words[5:]


def test_random_programs_are_valid_instructions_that_run():
    rng = random.Random(1)
    for _ in range(30):
        words = arm64.random_program(rng)
        lines = disassemble(struct.pack(f"<{len(words)}I", *words), arm64.CODE)
        assert not any(text.startswith((".inst", "udf", "unknown")) for _, text in lines), lines
    traces = arm64.random_traces("train", 0, 40)
    classes = arm64.instruction_class(np.concatenate([t.actions for t in traces]))
    assert set(classes) == {0, 1} and sum(len(t) for t in traces) > 500


def test_the_split_is_by_program_content():
    train_words = {tuple(t.words) for t in arm64.random_traces("train", 0, 100)}
    eval_traces = arm64.random_traces("eval", 0, 20)
    assert not train_words & {tuple(t.words) for t in eval_traces}
    assert all(arm64.split_of(t.words) == "eval" for t in eval_traces)


def test_state_bits_round_trip():
    raw = np.concatenate([t.states for t in arm64.random_traces("train", 3, 10)])
    bits = arm64.state_bits(raw)
    assert bits.shape == (len(raw), arm64.STATE_BITS)
    back = (bits.reshape(len(raw), arm64.WORDS, 64).astype(np.uint64) << np.arange(64, dtype=np.uint64)).sum(-1)
    assert np.array_equal(back.astype(np.uint64), raw)


def test_faults_change_what_they_say():
    rng = random.Random(0)
    before, words, after = _transitions(arm64.random_traces("eval", 1, 40))
    seen = set()
    for i in range(len(words)):
        for kind in arm64.FAULTS:
            bad = arm64.inject(kind, before[i], int(words[i]), after[i], rng)
            if bad is None:
                continue
            seen.add(kind)
            changed = np.flatnonzero(bad != after[i])
            assert len(changed) >= 1
            if kind in ("register", "alu"):
                assert len(changed) == 1 and bin(int(bad[changed[0]] ^ after[i][changed[0]])).count("1") == 1
                assert (changed[0] == arm64.destination(int(words[i]))) == (kind == "alu")
            if kind == "branch":
                assert list(changed) == [arm64.PC_COL]
            if kind == "skip":
                assert int(bad[arm64.PC_COL]) == int(before[i][arm64.PC_COL]) + 4
    assert seen == set(arm64.FAULTS)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    torch.set_num_threads(1)
    path = tmp_path_factory.mktemp("world_arm64") / "tiny.pt"
    tc = TrainConfig(steps=200, batch=32, programs_per_refresh=120, refresh_every=100, lr=2e-3, max_trace_steps=64,
                     checkpoint_every=100, calibration_programs=30, error_rate_programs=40, trip_programs=300,
                     trip_steps=200)
    train(tc, TINY, path, target="arm64")
    return path


@pytest.fixture(scope="module")
def shipped_arm64():
    from ncpu.commands.world import shipped
    return shipped("arm64")


def test_the_shipped_arm64_model_beats_no_change_and_sees_faults(shipped_arm64):
    model, checkpoint = load_model(shipped_arm64)
    assert checkpoint["target"] == "arm64"
    world_checks.arm64_beats_no_change_and_sees_faults(model)


@pytest.mark.slow
def test_a_tiny_arm64_model_beats_no_change_and_sees_faults(tiny):
    model, checkpoint = load_model(tiny)
    assert checkpoint["target"] == "arm64" and checkpoint["step"] == 200
    world_checks.arm64_beats_no_change_and_sees_faults(model)


@pytest.mark.slow
def test_the_arm64_eval_has_every_table(tiny):
    model, checkpoint = load_model(tiny)
    result = evaluate_arm64(model, checkpoint["thresholds"], programs=20, faults_per_kind=200)
    assert set(result["one_step"]) >= {"model", "no_change", "linear", "per_class", "latent", "probe_on_true_latents"}
    assert result["one_step"]["latent"]["dims_std_below_0.1"] == 0
    assert set(result["rollouts"]) == {"k=1", "k=4", "k=16", "k=64"}
    assert set(result["anomalies"]) >= {"register", "alu", "skip", "branch", "false_positive_rate"}
    assert set(result["speculation"]) == {"branch_k=1", "branch_k=4", "branch_k=16"}
    trips = evaluate_arm64(model, None, programs=20, faults_per_kind=20,
                           trips=arm64_trip_head_of(model, load_model(tiny)[1]))["trip_counts"]["held_out"]
    assert trips["latches"] > 50 and {"accuracy", "majority_accuracy", "speculate_verify"} <= set(trips)


def test_arm64_loop_latches_count_what_the_counter_holds():
    # At the B.NE of a counted loop (after SUBS X7, X7, #1) the loop goes on X7 more times:
    # the remaining count trip counting finds through the ARM64 view is the counter.
    traces = arm64.random_traces("eval", 5, 40, program=arm64.loop_program)
    latches = Latches.of(traces, arm64.LOOPS)
    assert len(latches) > 100 and latches.first.sum() >= 30
    assert np.array_equal(latches.remaining, latches.before[:, arm64.COUNTER].astype(np.int64))


def test_a_tiny_arm64_trip_head_beats_the_majority_on_held_out_counted_loops(tiny):
    from ncpu.world.trips import train_trip_head, majority_count, trip_report
    model, _ = load_model(tiny)
    train_traces = arm64.random_traces("train", 9, 300, program=arm64.loop_program)
    head = train_trip_head(model, train_traces, 400, view=arm64.LOOPS)
    held = Latches.of(arm64.random_traces("eval", 9, 100, program=arm64.loop_program), arm64.LOOPS)
    report = trip_report(model, head, majority_count(train_traces, arm64.LOOPS), held, arm64.LOOPS)
    assert report["accuracy"] > report["majority_accuracy"] + 0.1


def test_eval_refuses_a_model_of_the_other_machine(shipped_arm64, capsys):
    from ncpu.cli import main
    assert main(["world", "eval", "--checkpoint", str(shipped_arm64)]) == 2
    assert "--target arm64" in capsys.readouterr().err


@pytest.mark.slow
def test_eval_target_arm64_prints_json(tiny, capsys):
    import json

    from ncpu.cli import main
    assert main(["world", "eval", "--target", "arm64", "--checkpoint", str(tiny), "--programs", "5", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["checkpoint"]["steps"] == 200 and "register" in result["anomalies"]


def test_every_random_instruction_has_a_form_and_its_destination_a_role():
    rng = random.Random(4)
    words = np.array([w for _ in range(100) for w in arm64.random_program(rng)], np.uint64)
    kinds = arm64.kind_of(words)
    none_of_the_forms = arm64.KINDS // 2 - 1
    assert (kinds // 2 != none_of_the_forms).all() and len(set(kinds // 2)) == none_of_the_forms
    assert list(arm64.kind_of(np.array([0x8B000021, 0x0B000021]))) == [2 * 4 + 1, 2 * 4]  # add x / add w
    roles = arm64.word_roles(np.array([0x8B000021, 0xF100041F, 0x54FFFF81], np.uint64))  # add x1; cmp x0, #1; b.ne
    assert arm64.ROLES[roles[0, 1]] == "written_register" and arm64.ROLES[roles[0, 0]] == "other_register"
    assert "written_register" not in {arm64.ROLES[r] for r in roles[1]} | {arm64.ROLES[r] for r in roles[2]}
    assert [arm64.ROLES[r] for r in roles[0, 31:]] == ["sp", "pc", "nzcv"]


def test_arm64_error_rates_make_a_miss_where_the_model_is_never_wrong_the_bigger_surprise():
    from ncpu.world.calibrate import ErrorRates
    rng = np.random.default_rng(0)
    n = 3000
    words = np.full(n, 0x8B000021, np.uint64)  # add x1, x1, x0
    logits = np.full((n, arm64.STATE_BITS), 12.0, np.float32)
    observed = np.ones((n, arm64.STATE_BITS), bool)
    observed[:, 64:128] = rng.random((n, 64)) > 0.3  # X1, the written register, is wrong 30% of the time
    rates = ErrorRates.fit(words, logits, observed, arm64.CONTEXTS)
    in_written, elsewhere = np.ones((1, arm64.STATE_BITS), bool), np.ones((1, arm64.STATE_BITS), bool)
    in_written[0, 64 + 7] = False
    elsewhere[0, 5 * 64 + 7] = False  # X5's bit 7
    written = rates.worst(words[:1], logits[:1], in_written)[0]
    other = rates.worst(words[:1], logits[:1], elsewhere)[0]
    assert other > written + 3 and np.isclose(written, -np.log(0.3), atol=0.05)


def test_watch_an_arm64_program_with_faults(shipped_arm64, tmp_path, capsys):
    import json
    from pathlib import Path

    from ncpu.cli import main
    program = str(Path(__file__).resolve().parents[2] / "docs" / "world_arm64_countdown.hex")
    # a wrong product (mul x3) and a skipped eor: neither touches the loop counter
    assert main(["world", "watch", "--target", "arm64", program, "--fault", "alu@4", "--fault", "skip@10",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    steps = out["steps"]
    assert len(steps) == 3 + 5 * 10 + 1 and [s["fault"] for s in steps if s["fault"]] == ["alu", "skip"]
    assert steps[4]["fault"] == "alu" and steps[10]["fault"] == "skip" and steps[10]["instruction"].startswith("eor")
    assert steps[3]["instruction"] == "add x1, x1, x0" and steps[3]["pc"] == arm64.CODE + 12
    assert out["score"] == "calibrated" and all(s["flagged"] == (s["scores"]["calibrated"] > out["threshold"])
                                                for s in steps)
    bad = tmp_path / "bad.hex"
    bad.write_text("d2800140\nnot-hex\n")
    assert main(["world", "watch", "--target", "arm64", str(bad)]) == 2
    assert "not a 32-bit hex instruction word" in capsys.readouterr().err
    assert main(["world", "watch", "--target", "arm64", program, "--fault", "memory@2"]) == 2
    assert "KIND@STEP" in capsys.readouterr().err
