"""Benchmark: what a thread alone on the machine gains from its longer turns (scheduler.ALONE_QUANTA).

    python benchmarks/arm64_turns.py [--runs N] [--only NAME ...] [--json]

Builds the CPU-bound programs of arm64_user_runs.py, runs each twice as `ncpu arm64` to fill
its translation cache (an empty NCPU_NATIVE_OBJECTS), then N times each way, alternated, as
fresh processes running `ncpu arm64 PROGRAM` with ALONE_QUANTA set to 1 (a turn of QUANTUM
instructions, as before 2026-11-30) and to the default (100): the CLI's own `main`, with the
one constant changed before it runs. Prints the CPU seconds (user + system, start-up included)
of each run, their medians, and the instruction counts, which must be equal.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from arm64_user_runs import HERE, PROGRAMS, _cpu_of

_MAIN = ("import sys; import ncpu.arm64.linux.scheduler as s; s.ALONE_QUANTA = int(sys.argv[1]); "
         "from ncpu.cli import main; sys.exit(main(['arm64', '--stats', '--json', *sys.argv[2:]]))")


def measure(name: str, runs: int, tmp: Path) -> dict:
    from ncpu.arm64.linux import scheduler
    binary, scale = tmp / name, str(PROGRAMS[name])
    subprocess.run(["aarch64-linux-gnu-gcc", "-static", "-O2", "-o", str(binary), str(HERE / f"{name}.c"), "-lm"],
                   check=True)
    env = dict(os.environ, NCPU_NATIVE_OBJECTS=str(tmp / f"{name}.pages"))
    for key in ("NCPU_NATIVE", "NCPU_NATIVE_BUDGET"):
        env.pop(key, None)
    ways = {1: [], scheduler.ALONE_QUANTA: []}
    counts = {k: set() for k in ways}
    for k in range(2 + 2 * runs):                     # two to fill the cache, then alternated
        quanta = list(ways)[k % 2]
        cpu, _, err = _cpu_of([sys.executable, "-c", _MAIN, str(quanta), str(binary), scale], env)
        if k >= 2:
            ways[quanta].append(cpu)
            counts[quanta].add(json.loads(err.decode().strip().splitlines()[-1])["instructions"])
    return {"name": name, "cpu": {str(q): c for q, c in ways.items()},
            "median": {str(q): statistics.median(c) for q, c in ways.items()},
            "same_count": len(set().union(*counts.values())) == 1}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, metavar="N", help="runs each way per program (default 5)")
    parser.add_argument("--only", action="append", choices=sorted(PROGRAMS), help="run only these programs")
    parser.add_argument("--json", action="store_true", help="print one JSON object per program")
    opts = parser.parse_args()
    if opts.runs < 1:
        parser.error("--runs must be at least 1")
    if shutil.which("aarch64-linux-gnu-gcc") is None:
        parser.error("aarch64-linux-gnu-gcc is not installed (scripts/setup.sh --test installs it)")
    with tempfile.TemporaryDirectory(prefix="ncpu-turns-") as tmp:
        for name in opts.only or list(PROGRAMS):
            row = measure(name, opts.runs, Path(tmp))
            if opts.json:
                print(json.dumps(row), flush=True)
                continue
            cells = [f"ALONE_QUANTA={q}: median {row['median'][q]:.2f} ({', '.join(f'{c:.2f}' for c in cpu)})"
                     for q, cpu in row["cpu"].items()]
            print(f"{name:<12} " + "  ".join(cells) + f"  same count: {row['same_count']}", flush=True)
    return 0


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
