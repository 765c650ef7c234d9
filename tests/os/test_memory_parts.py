"""The memory hierarchy neurOS simulates (TLB, data cache, prefetcher): the
recorded accesses, the oracle, the learned policies against LRU, MIN and the
stride prefetcher on held-out programs, and the guard."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from ncpu.cli import main
from ncpu.isa import assemble
from ncpu.machine.state import MachineState
from ncpu.os import corpus, memory_parts
from ncpu.os.kernel import Kernel
from ncpu.os.nets import prefetch
from ncpu.os.neural import WEIGHTS, NeuralPolicies
from ncpu.os.replacement import belady_hits, simulate
from ncpu.os.trace import KIND, run_traced

OS_PROGRAMS = Path(__file__).resolve().parents[2] / "programs" / "os"


def test_the_replay_records_every_data_access():
    words = assemble("""
        MOV R1, 5
        STORE R1, [R1+10]
        LOAD R2, [R1+10]
        PUSH R2
        CALL f
        POP R3
        HALT
    f:  RET
    """).words
    state, accesses = run_traced(words, MachineState(memory=[0] * 64), 100)
    assert state.halted and state.registers[3] == 5
    assert accesses == [(1, 15, KIND["STORE"]), (2, 15, KIND["LOAD"]), (3, 63, KIND["PUSH"]),
                        (4, 62, KIND["CALL"]), (7, 62, KIND["RET"]), (5, 63, KIND["POP"])]


def test_belady_is_never_beaten_by_lru():
    rng = np.random.default_rng(0)
    for _ in range(20):
        keys = rng.integers(0, 12, 300)
        assert belady_hits(keys, 2, 3).sum() >= simulate(keys, 2, 3).sum()
    # The classic: a loop over ways + 1 keys misses every time under LRU; MIN keeps most.
    loop = np.tile(np.arange(5), 20)
    assert simulate(loop, 1, 4).sum() == 0 and belady_hits(loop, 1, 4).sum() > 50


def test_the_split_is_by_program():
    train, held = corpus.split(corpus.all_images())
    assert len(held) >= 30 and len(train) >= 60
    assert not {i.name for i in train} & {i.name for i in held}
    assert all(len(mix) <= 3 for mix in corpus.mixes(held))


def test_both_policies_report_the_memory_statistics():
    """Same results (test_kernel checks it for the whole workload); here the counts."""
    paths = [OS_PROGRAMS / "memhog.asm", OS_PROGRAMS / "sum.asm"]
    reports = {}
    from ncpu.os.policies import ClassicalPolicies
    from ncpu.os.workload import load_images

    for policies in (ClassicalPolicies(), NeuralPolicies()):
        kernel = Kernel(load_images(paths), policies, memory_stats=True).run()
        reports[policies.name] = kernel.report()
        memory = reports[policies.name]["memory"]
        assert memory["tlb_hits"] + memory["tlb_misses"] == memory["cache_hits"] + memory["cache_misses"] > 100
        assert policies.decisions["tlb"] > 0 and policies.decisions["cache"] > 0
    strip = lambda r: [(p["exit_status"], p["stdout"], p["steps"]) for p in r["processes"]]  # noqa: E731
    assert strip(reports["classical"]) == strip(reports["neural"])


def held_out_mix(names: tuple[str, ...]) -> list[np.ndarray]:
    images = {i.name: i for i in corpus.all_images()}
    assert all(corpus.held_out(name) for name in names), "the quick tests use held-out programs only"
    kernel = Kernel([images[name] for name in names], record=True).run()
    return [np.array(kernel.trace, np.int64).reshape(-1, 6)]


@pytest.fixture(scope="module")
def held_out_rows():
    torch.set_num_threads(1)  # small nets: threads only contend on a loaded machine
    streams = held_out_mix(("syn_chase5", "syn_chase4", "count_leading_zeros")) + \
        held_out_mix(("syn_sweep3", "sieve", "syn_matrix2"))
    return {row["part"]: row for row in memory_parts.judge(streams, WEIGHTS)}


def test_shipped_cache_policy_beats_lru_on_held_out_programs(held_out_rows):
    row = held_out_rows["data cache"]
    assert row["oracle"] > row["classical"], "the cache is under pressure: MIN and LRU differ"
    assert row["neural"] > row["classical"]
    assert row["overrides"] == 0


def test_shipped_tlb_policy_is_judged_against_lru_and_min(held_out_rows):
    """The learned TLB does NOT beat LRU on held-out programs (docs/neuros.md gives
    the figures): it is measured here, not assumed; MIN bounds both."""
    row = held_out_rows["TLB"]
    assert row["oracle"] > row["classical"] and row["oracle"] >= row["neural"]
    assert row["run_decisions"] > 100 and row["overrides"] == 0


def test_shipped_prefetcher_covers_more_misses_than_stride_on_held_out_programs(held_out_rows):
    row = held_out_rows["prefetcher"]
    assert row["issued_neural"] > 0 and row["issued_classical"] > 0
    assert row["coverage_neural"] > row["coverage_classical"]
    assert row["neural"] > 0.9 and row["classical"] > 0.9, "both prefetchers are accurate here"


def test_the_prefetch_guard_drops_lines_outside_memory_and_counts_them():
    policies = NeuralPolicies()
    with torch.no_grad():  # now always "+8 lines", sure of it
        policies.prefetch_net.layers[2].bias[prefetch.to_class(8)] += 100.0
    lines = np.array([0, 1, 2, 3, 60, 61, 62, 63])
    pcs = [(0, pc) for pc in range(4)] * 2  # each instruction moves on once: an event each
    wanted = policies.prefetch(1, pcs, lines, [KIND["LOAD"]] * 8, line_limit=64)
    assert list(wanted) == [-1] * 4 + [-1, -1, -1, -1]
    assert policies.decisions["prefetch"] == 4 and policies.overrides["prefetch"] == 4
    wanted = policies.prefetch(1, pcs[:4], np.array([10, 11, 12, 13]), [KIND["LOAD"]] * 4, line_limit=64)
    assert list(wanted) == [18, 19, 20, 21] and policies.overrides["prefetch"] == 4


def test_a_tiny_training_run_is_reproducible_from_its_seed(tmp_path):
    streams = held_out_mix(("syn_recurse4", "nsl_scopes", "wide_constants"))  # a small mix: only reproducibility here
    first = memory_parts.train(tmp_path / "a", seed=3, streams=streams, epochs=1)
    second = memory_parts.train(tmp_path / "b", seed=3, streams=streams, epochs=1)
    for name in memory_parts.PARTS:
        for a, b in zip(first[name].state_dict().values(), second[name].state_dict().values()):
            assert torch.equal(a, b)


def test_os_run_prints_the_memory_statistics(capsys):
    assert main(["os", "run", str(OS_PROGRAMS / "sum.asm"), "--json"]) == 0
    memory = json.loads(capsys.readouterr().out)["memory"]
    assert memory["cache_hits"] > 0 and 0 < memory["cache_hit_rate"] <= 1
    assert main(["os", "run", str(OS_PROGRAMS / "sum.asm"), "--policy", "classical", "--memory-stats"]) == 0
    assert "memory: TLB hits" in capsys.readouterr().out
    # without --memory-stats the classical policy skips the replay that feeds the statistics
    assert main(["os", "run", str(OS_PROGRAMS / "sum.asm"), "--policy", "classical", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["memory"] is None


@pytest.mark.slow
def test_on_every_held_out_program():
    """The figures docs/neuros.md quotes: all held-out mixes."""
    torch.set_num_threads(1)
    rows = {row["part"]: row for row in memory_parts.judge(memory_parts.traces(held_out=True), WEIGHTS)}
    assert rows["data cache"]["neural"] > rows["data cache"]["classical"]
    assert rows["data cache"]["oracle"] > rows["data cache"]["neural"]
    assert rows["prefetcher"]["coverage_neural"] > rows["prefetcher"]["coverage_classical"]
    assert rows["TLB"]["oracle"] > rows["TLB"]["classical"]
