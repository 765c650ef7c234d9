"""Instructions per second of one machine in neural mode through `ncpu run`,
as a user runs it, beside the `ncpu bench --neural` harness figure.

    python benchmarks/neural_cli_run.py [--iterations N] [--repeats R]

Runs programs/alu_loop.asm (ADD, XOR, SHL, INC, DEC, JNZ; 6 steps an
iteration, R0 = iterations) with `ncpu run --mode neural --json` in a fresh
process. Reports, for the best of R runs:

* the run as `ncpu run` times it (its `run_seconds`: the engine's run call),
* the run as seen from outside: the command's wall time minus the start-up,
  where start-up is the wall time of the same command on a one-iteration
  run (Python, imports, loading the weights, laying the circuits out),
* the harness figure: `ncpu.commands.bench.measure("neural", 1, steps)` in
  this process (the path `ncpu bench --neural` takes for batch 1), on its
  own branchy loop.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "programs" / "alu_loop.asm"


def timed_run(iterations: int) -> tuple[float, dict]:
    command = [sys.executable, "-m", "ncpu", "run", str(PROGRAM), "--mode", "neural", "--json",
               "--reg", f"R0={iterations}", "--max-steps", str(6 * iterations + 100)]
    started = time.perf_counter()
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - started, json.loads(output)


def harness_rate(steps: int) -> float:
    import torch

    from ncpu.commands.bench import measure

    torch.set_num_threads(1)  # as `ncpu bench` does by default
    return measure("neural", 1, steps).ips


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100_000, help="loop iterations (default 100,000: 600,003 steps)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each command; the fastest counts (default 3)")
    args = parser.parse_args()
    startup = min(timed_run(1)[0] for _ in range(args.repeats))
    runs = [timed_run(args.iterations) for _ in range(args.repeats)]
    wall, result = min(runs, key=lambda pair: pair[0])
    if not result["halted"]:
        print("alu_loop did not halt within its budget", file=sys.stderr)
        return 1
    steps = result["steps"]
    inside = min(r["run_seconds"] for _, r in runs)
    print(f"program              {PROGRAM.name}, R0={args.iterations:,}, {steps:,} steps, neural mode")
    print(f"ncpu run, its timing {inside:.3f} s run   {steps / inside:>10,.0f} instructions/s  "
          f"(start-up it reported: {result['startup_seconds']:.2f} s)")
    print(f"ncpu run, wall       {wall:.3f} s total {steps / wall:>10,.0f} instructions/s including start-up")
    print(f"start-up             {startup:.3f} s        (same command, one iteration)")
    if wall > startup:
        print(f"excluding start-up   {wall - startup:.3f} s run   {steps / (wall - startup):>10,.0f} instructions/s")
    else:
        print("excluding start-up   not measurable: start-up varied by more than the run took")
    print(f"harness (ncpu bench --neural, batch 1, {steps:,} steps): {harness_rate(steps):,.0f} instructions/s")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine              {os.cpu_count()} cores, load average {load:.1f} (1 min) at the end")
    return 0


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
