"""Training and judging the memory-hierarchy parts (TLB, data cache, prefetcher)
on traces of real workloads, split by program (`ncpu.os.corpus`).

A trace is the access stream the kernel recorded while running a mix of
programs (rows: pid, program, pc, address, kind, the process's memory size). Judging replays the
held-out traces through the same `Hierarchy` the kernel uses, once with the
classical policies and once with the networks, and adds Belady's MIN for
the two replacement parts.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from ncpu.os import corpus
from ncpu.os.hierarchy import Hierarchy, HierarchyConfig
from ncpu.os.kernel import Kernel
from ncpu.os.nets import cache, prefetch, tlb
from ncpu.os.replacement import belady_hits

PARTS = ("tlb", "cache", "prefetch")


def traces(held_out: bool, log=None) -> list[np.ndarray]:
    """One access stream per workload mix of the training or held-out programs."""
    train, held = corpus.split(corpus.all_images())
    streams = []
    for mix in corpus.mixes(held if held_out else train):
        kernel = Kernel(mix, record=True).run()
        streams.append(np.array(kernel.trace, np.int64).reshape(-1, 6))
        if log:
            log(f"trace of {', '.join(i.name for i in mix)}: {len(streams[-1]):,} accesses")
    return streams


def train(directory: Path, seed: int = 0, log=None, streams: list[np.ndarray] | None = None,
          epochs: int = 4) -> dict:
    """Train the three parts on the training traces and save them. One torch
    thread: the nets are small, and the result then does not depend on how
    many cores the machine has (threaded sums round differently)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _train(directory, seed, log, streams, epochs)
    finally:
        torch.set_num_threads(threads)


def _train(directory: Path, seed: int, log, streams: list[np.ndarray] | None, epochs: int) -> dict:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    streams = traces(held_out=False, log=log) if streams is None else streams
    nets = {}
    for name in PARTS:
        if name == "prefetch":
            pairs = [prefetch.events(s, HierarchyConfig().line_words)[:2] for s in streams if len(s)]
            net = prefetch.train_net(np.concatenate([p[0] for p in pairs]), np.concatenate([p[1] for p in pairs]),
                                     seed, epochs, log)
        else:
            net = (tlb if name == "tlb" else cache).train(streams, seed, epochs, log)
        torch.save(net.state_dict(), directory / f"{name}.pt")
        nets[name] = net
        if log:
            log(f"{name}: saved {name}.pt")
    return nets


def replay(streams: list[np.ndarray], policies) -> dict:
    """The hierarchy's counts over the streams, replayed slice by slice as the kernel ran them."""
    from collections import Counter

    total = Counter()
    for stream in streams:
        hierarchy = Hierarchy(policies)
        rows = stream.tolist()
        start = 0
        for index in range(1, len(rows) + 1):  # consecutive rows of one pid: one slice
            if index == len(rows) or rows[index][0] != rows[start][0]:
                pid, program = rows[start][0], rows[start][1]
                hierarchy.slice(pid, program, rows[start][5], [(r[2], r[3], r[4]) for r in rows[start:index]])
                start = index
        total.update(hierarchy.stats)
    return total


def judge(streams: list[np.ndarray], directory: Path) -> list[dict]:
    """One row per part on these streams: metric, classical, oracle, neural, overrides."""
    from ncpu.os.neural import NeuralPolicies
    from ncpu.os.policies import ClassicalPolicies

    config = HierarchyConfig()
    counts, overrides = {}, {}
    # The prefetcher is judged beside the same (LRU) cache as the stride prefetcher.
    for name, policies in (("classical", ClassicalPolicies()), ("neural", NeuralPolicies(directory)),
                           ("prefetch", NeuralPolicies(directory, parts={"prefetch"}))):
        counts[name] = replay(streams, policies)
        overrides[name] = dict(policies.overrides), dict(policies.decisions)
    best = {"tlb": 0, "cache": 0}
    accesses = 0
    for stream in streams:
        if len(stream):
            accesses += len(stream)
            best["tlb"] += int(belady_hits(tlb.keys_of(stream), 1, config.tlb_entries).sum())
            best["cache"] += int(belady_hits(cache.keys_of(stream), config.cache_sets, config.cache_ways).sum())
    rows = []
    for part, hits in (("TLB", "tlb_hits"), ("data cache", "cache_hits")):
        key = "tlb" if part == "TLB" else "cache"
        lru, neural, oracle = (counts["classical"][hits] / accesses, counts["neural"][hits] / accesses,
                               best[key] / accesses)
        rows.append({"part": part, "metric": "hit rate on held-out traces (LRU; MIN)",
                     "cases": accesses, "classical": lru, "oracle": oracle, "neural": neural,
                     "normalised": (neural - lru) / (oracle - lru) if oracle > lru else 0.0,
                     "run_decisions": overrides["neural"][1].get(key, 0),
                     "overrides": overrides["neural"][0].get(key, 0)})
    for name in ("classical", "prefetch"):
        c = counts[name]
        c["accuracy"] = c["prefetch_useful"] / max(c["prefetch_issued"], 1)
        c["coverage"] = c["prefetch_useful"] / max(c["cache_misses"], 1)
    rows.append({"part": "prefetcher", "metric": "accuracy on held-out traces (stride)",
                 "cases": counts["classical"]["cache_misses"], "classical": counts["classical"]["accuracy"],
                 "oracle": 1.0, "neural": counts["prefetch"]["accuracy"],
                 "coverage_classical": counts["classical"]["coverage"], "coverage_neural": counts["prefetch"]["coverage"],
                 "issued_classical": counts["classical"]["prefetch_issued"],
                 "issued_neural": counts["prefetch"]["prefetch_issued"],
                 "run_decisions": overrides["prefetch"][1].get("prefetch", 0),
                 "overrides": overrides["prefetch"][0].get("prefetch", 0)})
    return rows
