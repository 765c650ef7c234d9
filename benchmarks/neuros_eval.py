"""neurOS figures the README quotes: the trained parts against their oracles
(the TLB, cache and prefetcher on held-out traces), and the sample workload
(programs/os) under both policies.

    python benchmarks/neuros_eval.py

CPU time (time.process_time) of each workload run, not wall time: the
machine these figures come from is shared.
"""

from __future__ import annotations

import time
from pathlib import Path

from ncpu.os.kernel import Kernel
from ncpu.os.neural import NeuralPolicies
from ncpu.os.policies import ClassicalPolicies
from ncpu.os.training import evaluate
from ncpu.os.workload import load_images

WORKLOAD = sorted((Path(__file__).resolve().parents[1] / "programs" / "os").glob("*.asm"))


def main() -> None:
    rows = evaluate(workload=load_images(WORKLOAD), sources=[path.read_text() for path in WORKLOAD])
    print("| part | metric | cases | classical | oracle | neural | run-time decisions | overrides |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['part']} | {r['metric']} | {r['cases']:,} | {r['classical']:.4f} | {r['oracle']:.4f} "
              f"| {r['neural']:.4f} | {r['run_decisions']:,} | {r['overrides']:,} |")
    print()
    for r in rows:
        if "normalised" in r:
            print(f"- {r['part']}: neural normalised {r['normalised']:+.3f} (LRU = 0, MIN = 1)")
        if "coverage_neural" in r:
            print(f"- {r['part']}: coverage (useful / cache misses) stride {r['coverage_classical']:.4f}, "
                  f"neural {r['coverage_neural']:.4f}; issued stride {r['issued_classical']:,}, "
                  f"neural {r['issued_neural']:,}")
    print()
    print("| policy | processes | same results | instructions | ticks | page faults | syscalls "
          "| TLB hit | cache hit | prefetch useful/issued | CPU s |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    reference = None
    for policies in (ClassicalPolicies(), NeuralPolicies()):
        started = time.process_time()
        kernel = Kernel(load_images(WORKLOAD, policies), policies, stdin=b"typed input").run()
        seconds = time.process_time() - started
        report = kernel.report()
        outcome = [(p["pid"], p["exit_status"], p["stdout"], p["steps"]) for p in report["processes"]]
        reference = reference or outcome
        s, m = report["stats"], report["memory"]
        print(f"| {policies.name} | {len(outcome)} | {outcome == reference} | {s['instructions']:,} | {s['ticks']} "
              f"| {s['page_faults']} | {s['syscalls']} | {m['tlb_hit_rate']:.4f} | {m['cache_hit_rate']:.4f} "
              f"| {m['prefetch_useful']}/{m['prefetch_issued']} | {seconds:.2f} |")


if __name__ == "__main__":
    main()
