"""Where a native page build's time goes (arm64/cpu/native.py).

    python benchmarks/arm64_native_build.py [--program NAME] [--scale N] [--pipeline light|o3]
                                            [--whole | --max-depth N] [--min-stretch N] [--pages]

Builds one of the benchmark programs (aarch64-linux-gnu-gcc -static -O2),
runs it with native translation on, and times every `native.build` call by
phase (process CPU time):
  rows      the row functions' modules for linking, once each per process: parsed
            from the ones an earlier process kept (row_link.py), or else compiled (or
            loaded from its cache) by numba and prepared
  assemble  the page function's IR, written with llvmlite (Python)
  parse     IR text to LLVM module (+ numba's per-function passes, o3 only)
  link      the row functions' code linked into the page module
  optimize  the module pass pipeline
  codegen   machine code generation and loading
Prints the totals, ms per translated guest instruction (what LLVM costs per
instruction: rows excluded, they are a one-time cost), and the run's CPU
time; --pages lists every build.  --pipeline o3 is numba's own finalize (O3
module passes and code generation at O3), the way pages were built first;
--whole rebuilds a page's whole function each round (no chaining), --max-depth N
after N chained functions (native.MAX_DEPTH), and --min-stretch 1 translates
short stretches too, as native.py first did.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PHASES = ("rows", "assemble", "parse", "link", "optimize", "codegen")


def _instrument(native, log):
    """Wrap native.build with a CPU timer and take its phases (native.last_build_phases); for
    the o3 pipeline, split numba's finalize by wrapping its library's steps."""
    from numba.core import codegen as cg

    clock = time.process_time
    current: dict = {}          # phase -> seconds of the build under way (empty: none)
    inside = []                 # phases under way: numba's steps inside "rows" are not counted

    def timed(phase, fn):
        def wrapper(*a, **k):
            if not current or "rows" in inside:
                return fn(*a, **k)
            inside.append(phase)
            t = clock()
            try:
                return fn(*a, **k)
            finally:
                inside.pop()
                current[phase] = current.get(phase, 0.0) + clock() - t
        return wrapper

    lib = cg.CPUCodeLibrary
    lib._optimize_final_module = timed("optimize", lib._optimize_final_module)
    lib._finalize_final_module = timed("codegen", lib._finalize_final_module)
    lib.add_ir_module = timed("parse", lib.add_ir_module)
    lib.finalize = timed("finalize", lib.finalize)
    native._compiled = timed("rows", native._compiled)
    native._linkable = timed("rows", native._linkable)      # the rows' modules: kept, or compiled
    original_build = native.build

    def build(page, slots, *arrays, **kw):
        current.clear()
        current["rows"] = 0.0
        t = clock()
        try:
            result = original_build(page, slots, *arrays, **kw)
        except BaseException:
            current.clear()
            raise                                       # a failed build is not timed, it stops the run
        total = clock() - t
        phases = dict(native.last_build_phases())       # assemble (rows included), light's
        if "assemble" in phases:                        # else reused in this process: nothing built
            phases["rows"] = current.get("rows", 0.0)
            phases["assemble"] -= phases["rows"]
            if native.PIPELINE == "o3":
                # finalize's own time, less the steps timed inside it: linking the rows in
                for k in ("parse", "optimize", "codegen"):
                    phases[k] = current.get(k, 0.0)
                phases["link"] = (phases.get("link", 0.0)       # the rows' modules added, and
                                  + current.get("finalize", 0.0) - phases["optimize"] - phases["codegen"])
            log.append({"page": page, "instructions": len(slots), "total": total, **phases})
        current.clear()
        return result
    native.build = build


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", default="arm64_bench", help="benchmarks/NAME.c (default arm64_bench)")
    parser.add_argument("--scale", type=int, default=20, help="the program's argument (default 20)")
    parser.add_argument("--pipeline", choices=("light", "o3"), default=None,
                        help="how page functions are optimised and compiled (default: native.py's)")
    parser.add_argument("--whole", action="store_true", help="rebuild whole pages, no chained functions")
    parser.add_argument("--max-depth", type=int, default=None,
                        help="native.MAX_DEPTH: functions chained on a page before it is rebuilt whole")
    parser.add_argument("--min-stretch", type=int, default=None, help="native.MIN_STRETCH (1: translate every run)")
    parser.add_argument("--pages", action="store_true", help="print every build")
    opts = parser.parse_args()

    from ncpu.arm64.cpu import native
    from ncpu.arm64.linux import Machine
    if opts.pipeline:
        native.PIPELINE = opts.pipeline
    if opts.max_depth is not None:
        native.MAX_DEPTH = opts.max_depth
    if opts.whole:
        native.MAX_DEPTH = 1
    if opts.min_stretch is not None:
        native.MIN_STRETCH = opts.min_stretch
    native.set_threshold(native.ON_THRESHOLD)
    native.OBJECT_DIR = tempfile.mkdtemp(prefix="ncpu-native-build-")   # every page compiled, none loaded
    native.BUILD_FREE = float("inf")                                    # and none left out (may_translate)
    log: list[dict] = []
    _instrument(native, log)
    with tempfile.TemporaryDirectory() as tmp:
        binary = Path(tmp) / opts.program
        subprocess.run(["aarch64-linux-gnu-gcc", "-static", "-O2", "-o", str(binary),
                        str(HERE / f"{opts.program}.c"), "-lm"], check=True)
        with open(Path(tmp) / "out", "wb") as out:
            cpu0 = time.process_time()
            result = Machine(root=tmp, stdio=(0, out.fileno(), 2)).run(str(binary), [opts.program, str(opts.scale)])
            cpu = time.process_time() - cpu0
    if opts.pages:
        print(f"{'page':>8}{'instr':>7}{'total ms':>10}" + "".join(f"{p:>10}" for p in PHASES))
        for e in log:
            print(f"{e['page']:>8x}{e['instructions']:>7}{e['total'] * 1e3:>10.1f}"
                  + "".join(f"{e.get(p, 0.0) * 1e3:>10.1f}" for p in PHASES))
    n = sum(e["instructions"] for e in log)
    total = sum(e["total"] for e in log)
    sums = {p: sum(e.get(p, 0.0) for e in log) for p in PHASES}
    llvm = total - sums["rows"]
    print(f"pipeline {native.PIPELINE}, max depth {native.MAX_DEPTH}, min stretch {native.MIN_STRETCH}: {len(log)} builds, {n} translated instructions "
          f"(largest page {max((e['instructions'] for e in log), default=0)}), status {result.status}")
    print(f"build CPU s: {total:.2f} (" + ", ".join(f"{p} {sums[p]:.2f}" for p in PHASES) + ")")
    if n:
        print(f"ms per translated instruction, rows excluded: {llvm / n * 1e3:.2f} "
              f"(" + ", ".join(f"{p} {sums[p] / n * 1e3:.2f}" for p in PHASES[1:]) + ")")
    print(f"run CPU s: {cpu:.2f}, guest instructions {result.instructions:,}")
    return 0 if result.status == 0 else 1


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
