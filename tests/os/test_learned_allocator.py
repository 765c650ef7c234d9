"""The learned block allocator: on held-out request streams (sources it never
trained on, including the kernel's own heap trace) it fails no more often
than first fit; at run time it places every page-table block and changes
no result."""

from __future__ import annotations

import random
from pathlib import Path

from ncpu.os.heap import Heap, best_fit, first_fit
from ncpu.os.kernel import Kernel
from ncpu.os.nets import allocator
from ncpu.os.neural import NeuralPolicies, load_net
from ncpu.os.policies import ClassicalPolicies
from ncpu.os.workload import load_images

OS_PROGRAMS = Path(__file__).resolve().parents[2] / "programs" / "os"


def test_heap_places_frees_and_counts():
    heap = Heap(10)
    assert heap.alloc("a", 4, first_fit) and heap.alloc("b", 4, first_fit)
    heap.free("a")
    assert heap.holes() == [(0, 4), (8, 2)]
    assert heap.alloc("c", 2, best_fit) and heap.blocks["c"] == (8, 2)
    assert not heap.alloc("d", 5, first_fit)
    assert heap.stats()["failures"] == 1 and heap.stats()["allocations"] == 4


def test_sources_are_split():
    assert not set(allocator.TRAIN_SOURCES) & set(allocator.HELD_SOURCES)


def test_shipped_allocator_on_held_out_synthetic_streams():
    net = load_net("allocator")
    rng = random.Random(3)
    traces = [allocator.synthetic(source, rng) for source in ("powerlaw", "lifo") for _ in range(10)]
    failures = {name: sum(allocator.replay(t, choose)["failures"] for t in traces)
                for name, choose in (("first_fit", first_fit), ("neural", allocator.neural_chooser(net)))}
    assert failures["neural"] <= failures["first_fit"]
    oracle = sum(allocator.replay_oracle(t)["failures"] for t in traces)
    assert oracle <= failures["neural"]


def test_heap_statistics_under_both_policies_and_same_results():
    images = load_images(sorted(OS_PROGRAMS.glob("*.asm")))
    reports = {}
    for policies in (ClassicalPolicies(), NeuralPolicies()):
        policies.heap_trace = []
        kernel = Kernel(images, policies, stdin=b"typed").run()
        reports[policies.name] = (kernel.report(), policies.heap_trace)
    strip = lambda r: [(p["pid"], p["exit_status"], p["stdout"], p["steps"]) for p in r["processes"]]  # noqa: E731
    assert strip(reports["classical"][0]) == strip(reports["neural"][0])
    report, trace = reports["neural"]
    assert report["stats"]["heap_allocations"] == len(report["processes"]) == report["decisions"]["heap"]
    assert sum(1 for e in trace if e[0] == "free") == len(report["processes"])
    assert not report["overrides"].get("heap")
