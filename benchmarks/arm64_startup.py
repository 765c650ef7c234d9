"""Start-up of the command line: `ncpu arm64` on a static hello world, `ncpu run` on fibonacci.

    python benchmarks/arm64_startup.py [--runs N] [--against OTHER_SRC | --imports]

Builds a static AArch64 hello world with aarch64-linux-gnu-gcc (the ARM64
part is skipped, with a message, when the cross compiler is missing), runs
each command once to warm numba's cache and Python's bytecode cache, then
runs it N more times, each in a fresh process, and prints the best and the
median CPU time (user + system of the child process) and wall time.

--against OTHER_SRC compares `ncpu arm64 hello` with another checkout's
`src` directory (a git worktree of an older commit, say): the two run in
alternation, each with caches of its own (in a temporary directory, warmed
by one run first), so that a change of the host's speed during the series
reaches both alike; prints each one's figures and every run's CPU time.

--imports says where `ncpu arm64 hello`'s imports go: N fresh processes under Python's
`-X importtime`, whose self times are summed per package (numba with llvmlite, numpy,
pyelftools, nCPU; a standard-library module counts with the package that imported it); prints
each group's median and the median of all imports, in milliseconds. importtime's own
bookkeeping makes these figures larger than the same imports without it: compare groups with
each other, not with the CPU figures above.

The children run with bytecode caching on even where PYTHONDONTWRITEBYTECODE
is set here: an installed package has its .pyc files, and compiling every
module's source again would add about 0.2 s to each figure.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HELLO_C = '#include <stdio.h>\nint main(){puts("hello");return 0;}\n'


def _environment(src: Path = ROOT / "src") -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(src), env.get("PYTHONPATH")) if p)
    return env


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _one_run(argv: list[str], env: dict, expect: str) -> tuple[float, float]:
    """(CPU s, wall s) of one fresh process: the growth of our reaped children's CPU time."""
    cpu, started = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=ROOT)
    wall, cpu = time.perf_counter() - started, _children_cpu() - cpu
    if done.returncode != 0 or expect not in done.stdout:
        raise SystemExit(f"{' '.join(argv)} failed (status {done.returncode}): {done.stderr[-500:]}")
    return cpu, wall


def _figures(cpu, wall) -> dict:
    return {"cpu_best": min(cpu), "cpu_median": statistics.median(cpu),
            "wall_best": min(wall), "wall_median": statistics.median(wall)}


def measure(argv: list[str], runs: int, expect: str) -> dict:
    env = _environment()
    _one_run(argv, env, expect)          # warm: numba's cache, .pyc files
    return _figures(*zip(*(_one_run(argv, env, expect) for _ in range(runs))))


def alternated(argv: list[str], runs: int, expect: str, sources: dict[str, Path], caches: Path) -> dict:
    """{label: figures, with "cpu": every run's CPU s} for `argv` run under each source tree in
    turn (the order swapped every round), each tree with its own numba and nCPU caches."""
    envs = {}
    for label, src in sources.items():
        env = _environment(src)
        env.update(NUMBA_CACHE_DIR=str(caches / label / "numba"), NCPU_CACHE_DIR=str(caches / label / "ncpu"))
        _one_run(argv, env, expect)      # warm this tree's caches
        envs[label] = env
    times: dict[str, list] = {label: [] for label in sources}
    for k in range(runs):
        for label in (list(sources) if k % 2 == 0 else list(sources)[::-1]):
            times[label].append(_one_run(argv, envs[label], expect))
    return {label: {**_figures(*zip(*t)), "cpu": [c for c, _ in t]} for label, t in times.items()}


# top-level package -> the group its import time counts in (--imports)
_GROUPS = {"numba": "numba + llvmlite", "llvmlite": "numba + llvmlite", "numpy": "numpy",
           "elftools": "pyelftools", "ncpu": "nCPU"}


def import_times(argv: list[str], runs: int) -> dict[str, float]:
    """{group: median ms} of the self times `python -X importtime` reports for `argv` (a Python
    command line), summed per group, and "all imports".  A module of a package in _GROUPS counts
    in its group; any other module (the standard library's, say) in the group of the nearest
    module above it in the import tree that has one, or in "the rest"."""
    env = _environment()
    subprocess.run(argv, env=env, capture_output=True, cwd=ROOT)      # warm the caches
    totals: dict[str, list[float]] = {}
    for _ in range(runs):
        done = subprocess.run([argv[0], "-X", "importtime", *argv[1:]], env=env, capture_output=True,
                              text=True, cwd=ROOT)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed (status {done.returncode}): {done.stderr[-500:]}")
        # "import time: self [us] | cumulative | name": a module after the modules it imported,
        # indented two spaces a level deeper than its importer; read backwards, an importer
        # comes before what it imported
        lines = [line[len("import time:"):].split("|") for line in done.stderr.splitlines()
                 if line.startswith("import time:") and "self [us]" not in line]
        sums: dict[str, float] = {}
        above: list[tuple[int, str]] = []           # (depth, group) of the importers of this line
        for self_us, _, name in reversed(lines):
            depth = len(name) - len(name.lstrip())
            while above and above[-1][0] >= depth:
                above.pop()
            group = _GROUPS.get(name.strip().split(".")[0]) or (above[-1][1] if above else "the rest")
            above.append((depth, group))
            for key in (group, "all imports"):
                sums[key] = sums.get(key, 0.0) + int(self_us) / 1000
        for key, ms in sums.items():
            totals.setdefault(key, []).append(ms)
    return {key: statistics.median(ms) for key, ms in totals.items()}


def _row(label: str, figures: dict) -> str:
    return (f"{label:<40} CPU best {figures['cpu_best']:.3f} s, median {figures['cpu_median']:.3f} s;"
            f"  wall best {figures['wall_best']:.3f} s, median {figures['wall_median']:.3f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="fresh processes per command after the warm-up")
    parser.add_argument("--against", type=Path, metavar="OTHER_SRC",
                        help="another checkout's src directory: compare `ncpu arm64 hello` with it, in alternation")
    parser.add_argument("--imports", action="store_true",
                        help="where `ncpu arm64 hello`'s import time goes, per package (python -X importtime)")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.imports and args.against is not None:
        parser.error("--imports and --against measure different things: give one")
    if args.against is not None and not (args.against / "ncpu" / "__init__.py").is_file():
        raise SystemExit(f"--against {args.against}: not a src directory holding the ncpu package")
    ncpu = [sys.executable, "-m", "ncpu"]
    print(f"{args.runs} fresh processes per command, after one warm-up run; load average "
          f"{os.getloadavg()[0]:.1f} at the start")
    gcc = shutil.which("aarch64-linux-gnu-gcc")
    if gcc is None:
        print("ncpu arm64 hello: skipped (aarch64-linux-gnu-gcc not found; "
              "`apt-get install gcc-aarch64-linux-gnu`)")
        if args.imports or args.against is not None:
            return 1                     # nothing else is what was asked for
    else:
        with tempfile.TemporaryDirectory(prefix="ncpu-startup-") as tmp:
            source, binary = Path(tmp) / "hello.c", Path(tmp) / "hello"
            source.write_text(HELLO_C)
            subprocess.run([gcc, "-static", "-O2", str(source), "-o", str(binary)], check=True)
            if args.against is not None:
                sources = {"this tree": ROOT / "src", str(args.against): args.against.resolve()}
                for label, figures in alternated([*ncpu, "arm64", str(binary)], args.runs, "hello",
                                                 sources, Path(tmp)).items():
                    print(_row(f"ncpu arm64 hello, {label}"[:40], figures))
                    print("    CPU s, in run order:", " ".join(f"{c:.3f}" for c in figures["cpu"]))
                return 0
            if args.imports:
                medians = import_times([*ncpu, "arm64", str(binary)], args.runs)
                print(f"ncpu arm64 hello, import time under -X importtime (median of {args.runs}, ms):")
                for group in sorted(medians, key=lambda g: (g == "all imports", -medians[g])):
                    print(f"    {group:<20}{medians[group]:8.1f}")
                return 0
            print(_row("ncpu arm64 hello (static)", measure([*ncpu, "arm64", str(binary)], args.runs, "hello")))
    print(_row("ncpu run programs/fibonacci.asm", measure([*ncpu, "run", "programs/fibonacci.asm"], args.runs,
                                                         "halted after 215 steps")))
    print(_row("python alone (-c print)", measure([sys.executable, "-c", "print('ok')"],
                                                               args.runs, "ok")))
    return 0


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
