"""Instructions per second of the compute engine through `ncpu run`, start-up included.

    python benchmarks/compute_cli_run.py [--iterations N]

Runs programs/bench_loop.asm (a branchy loop; R0 = iteration count) as a
user would, in a fresh process, and reports the steps, the wall time of the
whole command, and the start-up cost measured separately as the wall time of
the same command on a one-iteration run (Python, imports, numba cache load).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

PROGRAM = Path(__file__).resolve().parents[1] / "programs" / "bench_loop.asm"


def timed_run(iterations: int) -> tuple[float, dict]:
    command = [sys.executable, "-m", "ncpu", "run", str(PROGRAM), "--mode", "compute", "--json",
               "--reg", f"R0={iterations}", "--max-steps", str(10 * iterations + 100)]
    started = time.perf_counter()
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - started, json.loads(output)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100_000_000, help="loop iterations (default 1e8)")
    args = parser.parse_args()
    timed_run(1)  # make sure numba's cache is warm, as after installation
    startup, _ = min((timed_run(1) for _ in range(3)), key=lambda pair: pair[0])
    total, result = timed_run(args.iterations)
    if not result["halted"]:
        print("bench_loop did not halt within its budget", file=sys.stderr)
        return 1
    steps = result["steps"]
    print(f"program           {PROGRAM.name}, R0={args.iterations:,}")
    print(f"steps             {steps:,}")
    print(f"ncpu run total    {total:.2f} s  ({steps / total / 1e6:,.0f} M instructions/s including start-up)")
    print(f"start-up          {startup:.2f} s  (same command, one iteration)")
    print(f"excluding start   {steps / max(total - startup, 1e-9) / 1e6:,.0f} M instructions/s")
    return 0


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
