"""Instructions per second of the MUXLEQ engines, for one machine and for 4,096.

    python benchmarks/muxleq_bench.py [--engines compute,fast,neural,reference]
                                      [--batches 1,4096] [--threads 1] [--json]

Workload: the bundled `primes` program (SUBLEQ arithmetic, indirect loads
through self-modifying code, subroutine calls, output) searching for primes
up to 30,000 (424,734,074 instructions to the end): the compute engine at
B = 1 runs it to completion, every other run stops at its budget. Each figure is one timed run after a warm-up
run (numba's compiled code loaded, the circuits built). All machines of a
batch run the same image. Timings include moving state in and out of the
engine (numpy <-> torch), as a caller pays it. Both wall-clock and
process CPU time are printed: on a shared machine, instructions per
CPU-second is the steadier figure (it sums every thread's time).
"""

from __future__ import annotations

import argparse
import json
import time

import torch

from ncpu.muxleq.assembler import assemble_file, program_path
from ncpu.muxleq.engines import get_engine
from ncpu.muxleq.state import MuxleqBatch, MuxleqState

# Steps per machine: enough for a run of a few seconds at each engine's speed.
BUDGET = {
    ("compute", 1): 2_000_000_000, ("compute", 4096): 1_000_000,
    ("fast", 1): 2_000, ("fast", 4096): 256,
    ("neural", 1): 2_000, ("neural", 4096): 128,
    ("reference", 1): 1_000_000,
}
# The reference's run_batch is a Python loop over machines, each converted to
# a list of 65,536 ints and back: B = 4,096 measures that conversion, not the
# machine, so it is left out (its per-machine speed is the B = 1 figure).


def measure(mode: str, batch_size: int, budget: int) -> dict:
    machine = MuxleqState.load(assemble_file(program_path("primes")).cells, b"30000\n")
    engine = get_engine(mode)
    if batch_size == 1:
        engine.run(machine, 1000)  # warm-up
        started, cpu = time.perf_counter(), time.process_time()
        steps = engine.run(machine, budget).steps
    else:
        batch = MuxleqBatch.replicate(machine, batch_size)
        engine.run_batch(MuxleqBatch.replicate(machine, 2), 100)  # warm-up
        started, cpu = time.perf_counter(), time.process_time()
        steps = int(engine.run_batch(batch, budget).steps.sum())
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    return {"engine": mode, "batch": batch_size, "steps": steps, "seconds": round(seconds, 3),
            "cpu_seconds": round(cpu_seconds, 3), "instructions_per_second": round(steps / seconds),
            "instructions_per_cpu_second": round(steps / cpu_seconds)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", default="compute,fast,neural,reference")
    parser.add_argument("--batches", default="1,4096")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    rows = []
    for mode in args.engines.split(","):
        for batch_size in (int(b) for b in args.batches.split(",")):
            budget = BUDGET.get((mode, batch_size)) or BUDGET.get((mode, 4096 if batch_size > 1 else 1))
            if budget is None:
                continue
            rows.append(measure(mode, batch_size, budget))
            if not args.json:
                r = rows[-1]
                print(f"{r['engine']:>9}  B={r['batch']:<5} {r['steps']:>14,} instructions in "
                      f"{r['seconds']:8.3f} s ({r['cpu_seconds']:8.3f} s of CPU)  "
                      f"{r['instructions_per_second']:>13,} /s  {r['instructions_per_cpu_second']:>13,} /CPU-s",
                      flush=True)
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
