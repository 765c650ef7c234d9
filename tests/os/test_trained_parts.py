"""The shipped networks against their oracles, by enumeration; the guard's
count when a network is wrong; the `ncpu os` commands."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from ncpu.cli import main
from ncpu.os.kernel import Kernel
from ncpu.os.memory import UNMAPPED
from ncpu.os.nets import interrupts, mmu
from ncpu.os.neural import NeuralPolicies, load_net
from ncpu.os.workload import load_images

OS_PROGRAMS = Path(__file__).resolve().parents[2] / "programs" / "os"


def test_interrupt_controller_is_exact_on_every_pending_mask_pair():
    assert interrupts.verify(load_net("interrupts")) == {"cases": 1 << 16, "wrong": 0}


def test_mmu_is_exact_on_every_virtual_page_of_random_tables():
    check = mmu.verify(load_net("mmu"), tables=40, seed=99)
    assert check["wrong"] == 0 and check["cases"] > 100_000


def test_mmu_is_exact_on_the_tables_the_os_builds():
    net = load_net("mmu")
    kernel = Kernel(load_images([OS_PROGRAMS / "memhog.asm"]), slice_steps=50)
    tables = []
    original = kernel._store

    def store(p, before, after):  # every page table as it stands after each write-back
        original(p, before, after)
        tables.append(p.space.table.copy())

    kernel._store = store
    kernel.run()
    assert len(tables) > 5
    for table in tables:
        mapped = np.nonzero(table != UNMAPPED)[0]
        vpns = torch.as_tensor(mapped)
        assert mmu.verify_table(net, vpns, torch.as_tensor(table[mapped]), len(table)) == 0


def test_the_guard_counts_and_corrects_a_wrong_network():
    policies = NeuralPolicies()
    with torch.no_grad():
        policies.interrupt_net.layers[2].bias[interrupts.NONE] += 100.0  # now always says "none"
    assert policies.interrupt(0b0110, 0b0010) == 2
    assert policies.overrides["interrupt"] == 1


def test_os_run_json_and_policies_agree(capsys):
    files = [str(OS_PROGRAMS / "hello.asm"), str(OS_PROGRAMS / "forkpipe.asm")]
    reports = {}
    for policy in ("classical", "neural"):
        assert main(["os", "run", *files, "--policy", policy, "--json"]) == 0
        reports[policy] = json.loads(capsys.readouterr().out)
    strip = lambda r: [(p["pid"], p["exit_status"], p["stdout"]) for p in r["processes"]]  # noqa: E731
    assert strip(reports["classical"]) == strip(reports["neural"]) == [
        (1, 0, "Hello, nCPU!\n"), (2, 22, "ping\n" * 3), (3, 7, "")]


def test_os_run_readable_and_errors(capsys, tmp_path):
    assert main(["os", "run", str(OS_PROGRAMS / "hello.asm")]) == 0
    out = capsys.readouterr().out
    assert "hello" in out and "decisions:" in out and "overrides: none" in out
    bad = tmp_path / "bad.asm"
    bad.write_text("FROB R0\n")
    assert main(["os", "run", str(bad)]) == 2
    assert "bad.asm:1:" in capsys.readouterr().err


@pytest.mark.slow
def test_training_is_reproducible_and_exact(tmp_path):
    from ncpu.os.training import PARTS, train_all

    results = train_all(tmp_path, log=lambda line: None)
    assert all(results[name]["wrong"] == 0 for name in ("interrupts", "mmu", "assembler"))
    for name in PARTS:
        assert (tmp_path / f"{name}.pt").exists()
    # The memory-hierarchy parts are judged on held-out traces (tests/os/test_memory_parts.py).
    assert results["cache"]["neural"] > results["cache"]["classical"]
    # The learned parts, trained from the seed, judged on held-out workloads.
    scheduler = results["scheduler"]
    assert scheduler["neural"]["mean_turnaround"] < scheduler["rr"]["mean_turnaround"]
    assert results["watchdog"]["auroc"] > 0.85
    assert results["allocator"]["neural"]["failures"] <= results["allocator"]["first_fit"]["failures"]
