"""Benchmark: the four CPU-bound programs as a user runs them, fresh `ncpu arm64` processes.

    python benchmarks/arm64_user_runs.py [--runs N] [--after-install] [--only NAME ...] [--json]

Builds arm64_bench.c, arm64_fp.c, arm64_calls.c and arm64_mem.c (aarch64-linux-gnu-gcc
-static -O2) and, per program, in a fresh translation cache (an empty NCPU_NATIVE_OBJECTS):
qemu-aarch64 three times (the best is kept: its CPU time moves most on a shared host),
`ncpu arm64 --no-native` once, then `ncpu arm64` (native code on, the default) N times, each
a new process that loads what the runs before it compiled. Prints CPU seconds of each child
(user + system, start-up included, as /usr/bin/time gives them), the ratios to qemu, and for
each native run the share of its instructions that ran as native code and how often the loop
entered native code (`ncpu arm64 --stats --json`); every output must equal qemu's.

--after-install starts each program from a copy of the numba cache without the row functions
that page functions are made of (native_rows), as the first programs after an install or an
upgrade meet it: their first runs compile those too, within the build limit.
arm64_vs_qemu.py measures the same programs inside one process (start-up left out).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRAMS = {"arm64_bench": 100, "arm64_fp": 200, "arm64_calls": 300, "arm64_mem": 300}


def _cpu_of(cmd: list[str], env: dict) -> tuple[float, bytes, bytes]:
    """CPU seconds (user + system) of the child running `cmd`, its stdout and its stderr."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, env=env, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit status {done.returncode}\n{done.stderr.decode()[-2000:]}")
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, done.stdout, done.stderr


def _cache_without_rows(into: Path) -> Path:
    """A copy of the numba cache without the compiled row functions (native_rows.*)."""
    from ncpu import jitcache
    source = jitcache.cache_root()
    shutil.copytree(source, into, ignore=lambda _, names: [n for n in names if n.startswith("native")])
    return into


def measure(name: str, runs: int, after_install: bool, tmp: Path) -> dict:
    binary, scale = tmp / name, str(PROGRAMS[name])
    subprocess.run(["aarch64-linux-gnu-gcc", "-static", "-O2", "-o", str(binary), str(HERE / f"{name}.c"), "-lm"],
                   check=True)
    env = dict(os.environ, NCPU_NATIVE_OBJECTS=str(tmp / f"{name}.pages"))
    env.pop("NCPU_NATIVE", None)
    env.pop("NCPU_NATIVE_BUDGET", None)
    if after_install:
        env["NUMBA_CACHE_DIR"] = str(_cache_without_rows(tmp / f"{name}.numba"))
    qemu = [_cpu_of(["qemu-aarch64", str(binary), scale], env) for _ in range(3)]
    qemu_cpu, expected = min(c for c, _, _ in qemu), qemu[0][1]
    ncpu = [sys.executable, "-m", "ncpu", "arm64"]
    interpreted, out, _ = _cpu_of([*ncpu, "--no-native", str(binary), scale], env)
    same = out == expected
    native, share, entries = [], [], []
    for _ in range(runs):
        cpu, out, err = _cpu_of([*ncpu, "--stats", "--json", str(binary), scale], env)
        stats = json.loads(err.decode().strip().splitlines()[-1])
        native.append(cpu)
        share.append(stats["native_instructions"] / max(stats["instructions"], 1))      # 0 for a run of none
        entries.append(stats["native_entries"])
        same &= out == expected
    return {"name": name, "scale": int(scale), "qemu_cpu": qemu_cpu, "interpreted_cpu": interpreted,
            "native_cpu": native, "native_share": share, "native_entries": entries, "same": same}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=4, metavar="N", help="runs with native code per program (default 4)")
    parser.add_argument("--after-install", action="store_true",
                        help="start from a numba cache without the row functions (the first runs after an install)")
    parser.add_argument("--only", action="append", choices=sorted(PROGRAMS), help="run only these programs")
    parser.add_argument("--json", action="store_true", help="print one JSON object per program")
    opts = parser.parse_args()
    if opts.runs < 1:
        parser.error("--runs must be at least 1")
    for tool in ("qemu-aarch64", "aarch64-linux-gnu-gcc"):
        if shutil.which(tool) is None:
            parser.error(f"{tool} is not installed (scripts/setup.sh --test installs it)")
    with tempfile.TemporaryDirectory(prefix="ncpu-user-runs-") as tmp:
        for name in opts.only or list(PROGRAMS):
            row = measure(name, opts.runs, opts.after_install, Path(tmp))
            if opts.json:
                print(json.dumps(row), flush=True)
                continue
            q = row["qemu_cpu"]
            runs = ", ".join(f"{c:.2f}" for c in row["native_cpu"])
            ratios = ", ".join(f"{c / q:.1f}x" for c in row["native_cpu"])
            native = ", ".join(f"{s:.1%} ({e:,})" for s, e in zip(row["native_share"], row["native_entries"]))
            print(f"{name:<12} qemu {q:.2f}  --no-native {row['interpreted_cpu']:.2f} ({row['interpreted_cpu'] / q:.1f}x)  "
                  f"native runs {runs} ({ratios})  same as qemu: {row['same']}\n"
                  f"{'':<12} share in native code (times entered): {native}", flush=True)
    return 0


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
