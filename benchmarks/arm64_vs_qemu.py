"""Benchmark: the same CPU-bound static AArch64 binaries under ncpu and under qemu-aarch64.

    python benchmarks/arm64_vs_qemu.py [--only NAME ...] [--scale-factor F] [--native-runs N | --no-native]

Builds each program with aarch64-linux-gnu-gcc -static -O2, runs it under
both (same arguments, outputs checked equal) and prints, per program, both
wall times, both CPU times (qemu's from the child's rusage, ours from this
process), our guest instruction count and the ratio of the times.  On a
shared machine the CPU-time ratio is the figure that carries over; with the
machine to itself the two agree.

Our side runs as `ncpu arm64` does by default: hot code translated to native code, each program
run --native-runs times in this process, the first from an empty translation cache, each later
one loading what the runs before compiled (start-up left out: arm64_user_runs.py measures fresh
processes).  --no-native interprets only, once per program.

Programs: arm64_bench.c (hashing, a sieve, an FP sum, qsort), arm64_fp.c
(n-body and a matrix product in double precision), arm64_calls.c (recursion,
calls through pointers, qsort with strcmp), arm64_mem.c (a hash table,
memcpy/memmove, a scattered linked list).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# program -> scale that makes qemu-aarch64 run for about a second of CPU
PROGRAMS = {"arm64_bench": 100, "arm64_fp": 200, "arm64_calls": 300, "arm64_mem": 300}


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(name: str, scale: int, tmp: Path) -> dict:
    from ncpu.arm64.linux import Machine

    binary = tmp / name
    subprocess.run(["aarch64-linux-gnu-gcc", "-static", "-O2", "-o", str(binary), str(HERE / f"{name}.c"), "-lm"],
                   check=True)
    args = [str(scale)]
    cpu0, start = _children_cpu(), time.perf_counter()
    qemu = subprocess.run(["qemu-aarch64", str(binary), *args], capture_output=True, check=True)
    qemu_s, qemu_cpu = time.perf_counter() - start, _children_cpu() - cpu0
    out_path = tmp / f"{name}.out"
    with open(out_path, "wb") as out:
        cpu0, start = time.process_time(), time.perf_counter()
        result = Machine(root=str(tmp), stdio=(0, out.fileno(), 2)).run(str(binary), [name, *args])
        ours_s, ours_cpu = time.perf_counter() - start, time.process_time() - cpu0
    same = out_path.read_bytes() == qemu.stdout and result.status == 0
    return {"name": name, "scale": scale, "qemu_s": qemu_s, "qemu_cpu": qemu_cpu, "ours_s": ours_s,
            "ours_cpu": ours_cpu, "instructions": result.instructions, "same": same}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=sorted(PROGRAMS), help="run only these programs")
    parser.add_argument("--scale-factor", type=float, default=1.0, help="multiply every program's scale")
    parser.add_argument("--native", action=argparse.BooleanOptionalAction, default=True,
                        help="translate hot runs to native code, as `ncpu arm64` does by default "
                             "(arm64/cpu/native.py; --no-native: interpreted only): each program runs "
                             "--native-runs times, the first with an empty translation cache, each later "
                             "one loading what the runs before compiled, as a later process would (a run "
                             "compiles only within native.may_translate's limit)")
    parser.add_argument("--native-runs", type=int, default=3, metavar="N",
                        help="runs per program with native code (default 3)")
    parser.add_argument("--build-budget", metavar="FREE,SHARE",
                        help="with native code: the compile limit, CPU seconds always allowed and the share "
                             "of the process's CPU beyond them (default: native.BUILD_FREE, BUILD_SHARE)")
    opts = parser.parse_args()
    if opts.native_runs < 1:
        parser.error("--native-runs must be at least 1")
    if not 0 < opts.scale_factor < float("inf"):          # (nan is not > 0)
        parser.error("--scale-factor must be a positive number")
    budget = None
    if opts.build_budget is not None:
        try:
            budget = tuple(float(x) for x in opts.build_budget.split(","))
        except ValueError:
            budget = ()
        if len(budget) != 2 or not all(x >= 0 for x in budget):      # (nan is not >= 0)
            parser.error("--build-budget takes FREE,SHARE: two numbers, neither negative (e.g. 1,0.25)")
        if not opts.native:
            parser.error("--build-budget needs native code (not --no-native)")
    names = opts.only or list(PROGRAMS)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        from ncpu.arm64.linux import Machine  # noqa: F401  (import and cache load before timing)
        from ncpu.arm64.cpu import native
        native.set_threshold(native.ON_THRESHOLD if opts.native else 0)     # else: interpreted
        if opts.native:
            native.OBJECT_DIR = Path(tmp) / "pages"          # empty: nothing translated before
            if budget is not None:
                native.BUILD_FREE, native.BUILD_SHARE = budget
        for name in names:
            scale = max(1, round(PROGRAMS[name] * opts.scale_factor))
            if opts.native:
                for k in range(1, opts.native_runs + 1):
                    native.forget_loaded()
                    rows.append({**measure(name, scale, Path(tmp)), "name": f"{name} run {k}"})
            else:
                rows.append(measure(name, scale, Path(tmp)))
    print(f"{'program':<19}{'scale':>6}{'qemu s':>9}{'qemu cpu':>10}{'ncpu s':>9}{'ncpu cpu':>10}"
          f"{'guest instr':>15}{'MIPS/cpu-s':>12}{'ratio wall':>12}{'ratio cpu':>11}  same")
    for r in rows:
        print(f"{r['name']:<19}{r['scale']:>6}{r['qemu_s']:>9.2f}{r['qemu_cpu']:>10.2f}{r['ours_s']:>9.2f}"
              f"{r['ours_cpu']:>10.2f}{r['instructions']:>15,}{r['instructions'] / r['ours_cpu'] / 1e6:>12.1f}"
              f"{r['ours_s'] / r['qemu_s']:>11.1f}x{r['ours_cpu'] / r['qemu_cpu']:>10.1f}x  {r['same']}")
    return 0 if all(r["same"] for r in rows) else 1


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
