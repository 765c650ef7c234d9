"""The same sharded job in one process and on local Ray clusters of 1..N workers.

The job is a slice of `ncpu verify --exhaustive16`: the first 2^PAIRS operand
pairs of each op of the 16-bit dense ALU, in shards of 2^SHARD pairs. For
each setting it prints the wall time of `run_job` (Ray already started, its
worker processes not: starting them, importing torch and building the ALU
are part of the job), the throughput, and the scaling efficiency against
one Ray worker, T(1) / (N * T(N)). "shard s" sums the seconds each shard
took inside its worker: N * wall - shard s is what the cluster added (start-
up, scheduling, idle tails). The overhead per shard is measured apart,
with shards that do nothing. Each figure is the best of --repeats runs (the
cores may be shared). Every setting must give the same merged checks.

    PYTHONPATH=src python benchmarks/cluster_scaling.py --workers 1,2
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import torch

from ncpu.alu.verify import exhaustive_job, exhaustive_shards, merge_exhaustive
from ncpu.cluster import ClusterSpec, Job, run_job


def nothing(context, payload) -> int:
    return payload


def slice_shards(ops, pairs_log2: int, shard_log2: int):
    shards = exhaustive_shards(16, ops, shard_inputs=1 << shard_log2)
    return [s for s in shards if s.stop <= 1 << pairs_log2]


def timed(job: Job, spec: ClusterSpec, repeats: int) -> tuple[float, list]:
    """The best wall time of `repeats` runs (the cores are shared: the best
    run is the one least slowed by other work) and that run's results."""
    best, best_results = float("inf"), None
    for _ in range(repeats):
        started = time.perf_counter()
        results = run_job(job, spec)
        if time.perf_counter() - started < best:
            best, best_results = time.perf_counter() - started, results
    return best, best_results


def overhead_per_shard(spec: ClusterSpec, count: int, repeats: int) -> float:
    """The time between consecutive finishes of `count` shards that do
    nothing, from the first finish to the last (worker start-up excluded):
    the cost of one more shard. The best of `repeats` jobs."""
    best = float("inf")
    for _ in range(repeats):
        finishes: list[float] = []
        run_job(Job("nothing", list(range(count)), nothing), spec,
                progress=lambda index: finishes.append(time.perf_counter()))
        best = min(best, (finishes[-1] - finishes[0]) / (count - 1))
    return best


def one_process(args) -> dict:
    """The job and the no-op job in this process, as JSON for `main`."""
    shards = slice_shards(tuple(args.ops.split(",")), args.pairs, args.shard)
    seconds, results = timed(exhaustive_job(shards), ClusterSpec(), args.repeats)
    return {"seconds": seconds, "shard_seconds": sum(r[2] for r in results),
            "checks": [fields(c) for c in merge_exhaustive(shards, results)],
            "overhead": overhead_per_shard(ClusterSpec(), args.noop_shards, 3)}


def in_own_session(argv: list[str]) -> dict:
    """`one_process` in a child started in a new session. Linux's autogroup
    scheduler shares the CPUs between sessions first, and Ray starts its
    workers in sessions of their own: measured from this session, one
    process would get a different share of a busy machine than a worker."""
    done = subprocess.run([sys.executable, __file__, *argv, "--one-process"], capture_output=True, text=True,
                          start_new_session=True, check=True)
    return json.loads(done.stdout)


def fields(check) -> list:
    return [check.name, check.inputs, check.failures, check.example]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", default="ADD,MUL", help="ops of the 16-bit enumeration (default ADD,MUL)")
    parser.add_argument("--pairs", type=int, default=24, help="log2 of the pairs per op (default 24)")
    parser.add_argument("--shard", type=int, default=21, help="log2 of the pairs per shard (default 21)")
    parser.add_argument("--workers", default="1,2", help="Ray worker counts (default 1,2)")
    parser.add_argument("--repeats", type=int, default=2, help="runs per setting, the best counts (default 2)")
    parser.add_argument("--noop-shards", type=int, default=1000, help="no-op shards for the overhead (default 1000)")
    parser.add_argument("--one-process", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    torch.set_num_threads(1)  # as a Ray worker of 1 CPU runs
    if args.one_process:
        print(json.dumps(one_process(args)))
        return
    import ray

    ops = tuple(args.ops.split(","))
    shards = slice_shards(ops, args.pairs, args.shard)
    pairs = sum(s.stop - s.start for s in shards)
    job = exhaustive_job(shards)
    print(f"job: first 2^{args.pairs} pairs of {','.join(ops)} at 16 bits, {len(shards)} shards of "
          f"2^{args.shard} pairs; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start")
    alone = in_own_session(sys.argv[1:])
    reference = alone["checks"]
    rows = [("one process (no Ray)", alone["seconds"], alone["shard_seconds"], None, alone["overhead"])]
    baseline = None
    for workers in (int(w) for w in args.workers.split(",")):
        started = time.perf_counter()
        ray.init(num_cpus=workers, include_dashboard=False, object_store_memory=128 * 1024 * 1024,
                 log_to_driver=False, configure_logging=False)
        start_up = time.perf_counter() - started
        try:
            # "auto": the cluster just started (ClusterSpec(workers=1) would
            # mean this process, no Ray).
            spec = ClusterSpec(workers=workers, address="auto")
            seconds, results = timed(job, spec, args.repeats)
            overhead = overhead_per_shard(spec, args.noop_shards, 3)
        finally:
            ray.shutdown()
        if [fields(c) for c in merge_exhaustive(shards, results)] != reference:
            raise SystemExit(f"{workers} workers: merged checks differ from the one-process run")
        if workers == 1:
            baseline = seconds
        efficiency = baseline / (workers * seconds) if baseline else None
        rows.append((f"Ray, {workers} worker{'s' if workers > 1 else ''} (start-up {start_up:.1f} s)",
                     seconds, sum(r[2] for r in results), efficiency, overhead))
    failures = sum(c[2] for c in reference)
    print(f"every setting: the same merged checks ({failures} failures over {pairs:,} pairs)")
    print(f"{'setting':<34} {'wall s':>7} {'shard s':>8} {'Mpairs/s':>9} {'efficiency':>10} {'us/shard':>9}")
    for name, seconds, shard_seconds, efficiency, overhead in rows:
        eff = "" if efficiency is None else f"{efficiency:.0%}"
        print(f"{name:<34} {seconds:>7.1f} {shard_seconds:>8.1f} {pairs / seconds / 1e6:>9.2f} {eff:>10} "
              f"{overhead * 1e6:>9.0f}")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
