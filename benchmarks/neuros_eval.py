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
    learned_details({r["part"]: r["details"] for r in rows if "details" in r})
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
        kernel = Kernel(load_images(WORKLOAD, policies), policies, stdin=b"typed input", memory_stats=True).run()
        seconds = time.process_time() - started
        report = kernel.report()
        outcome = [(p["pid"], p["exit_status"], p["stdout"], p["steps"]) for p in report["processes"]]
        reference = reference or outcome
        s, m = report["stats"], report["memory"]
        print(f"| {policies.name} | {len(outcome)} | {outcome == reference} | {s['instructions']:,} | {s['ticks']} "
              f"| {s['page_faults']} | {s['syscalls']} | {m['tlb_hit_rate']:.4f} | {m['cache_hit_rate']:.4f} "
              f"| {m['prefetch_useful']}/{m['prefetch_issued']} | {seconds:.2f} |")


def learned_details(details: dict) -> None:
    """The learned parts' figures beside their metric: fairness, delay, fragmentation."""
    if "scheduler" in details:
        print("\n| scheduler (held-out mixes) | mean turnaround | Jain index of 1/slowdown | mean worst slowdown "
              "| overrides |")
        print("|---|---:|---:|---:|---:|")
        for name, label in (("rr", "round robin"), ("srpt", "SRPT oracle"), ("neural", "neural")):
            f = details["scheduler"][name]
            print(f"| {label} | {f['mean_turnaround']:.1f} | {f['jain']:.3f} | {f['max_slowdown']:.2f} "
                  f"| {f['overrides']} |")
    if "watchdog" in details:
        print("\n| watchdog (held-out programs) | AUROC | endless caught | median delay (instructions) "
              "| false flags |")
        print("|---|---:|---:|---:|---:|")
        for name in ("budget", "neural"):
            f = details["watchdog"][name]
            endless = details["watchdog"]["neural"]["endless"]
            print(f"| {name} | {f['auroc']:.3f} | {f['caught']}/{endless} | {f['median_delay_steps']:,.0f} "
                  f"| {f['false_flags']} |")
    if "block allocator" in details:
        print("\n| allocator (held-out traces) | failed allocations per trace | mean fragmentation |")
        print("|---|---:|---:|")
        for name in ("first_fit", "best_fit", "oracle", "neural"):
            f = details["block allocator"][name]
            print(f"| {name.replace('_', ' ')} | {f['failures']:.2f} | {f['fragmentation']:.4f} |")


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
