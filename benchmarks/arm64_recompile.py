"""What an edit costs: the ARM64 loop's compile after editing one source file, in CPU seconds.

    python benchmarks/arm64_recompile.py [--src DIR] [--keep]

Copies nCPU's package (from --src, default this checkout's src/) into a
temporary directory with its own empty numba cache, then runs the same tiny
guest program in a fresh process after each step:

    cold       nothing cached: everything compiles
    warm       nothing changed: everything loads from the cache
    simd-cold  a comment appended to exec_vshift.py (a cold SIMD family)
    int-hot    a comment appended to exec_int.py (a family with rows inlined in the loop)
    table      a comment appended to decode_table.py (every row's number lives there)

and prints each run's CPU time (user + sys of the child process, import
included) and how many compiled functions it compiled rather than loaded.
Every executor the loop calls by address (entries.py) is resolved, so each
step compiles or loads all the code a checkout without them compiled.
An appended comment changes no code, but the cache cannot know that: what
recompiles is what the cache believes depends on the file.  Run it with
--src pointing at another checkout's src/ for an A/B of the same steps.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

STEPS = (("cold", None), ("warm", None), ("simd-cold", "exec_vshift.py"),
         ("int-hot", "exec_int.py"), ("table", "decode_table.py"))

# The child: the loop's first call compiles (or loads) every function it needs.
CHILD = r"""
import json, struct
from numba.core.event import install_recorder
with install_recorder("numba:compile") as rec:
    from ncpu.arm64.cpu import Cpu, CpuState, Memory
    mem = Memory()
    mem.map(0x10000, 0x1000, 5)
    mem.write(0x10000, struct.pack("<I", 0xD4000001))       # svc #0
    state = CpuState()
    state.pc = 0x10000
    cpu = Cpu(mem, state)
    cpu.run(10)
    # executors called by address are resolved when first needed: resolve them all (a checkout
    # from before entries.py compiled them with the loop; one from before Cpu.resolve_all has
    # entries.resolve without the memory arrays)
    if hasattr(cpu, "resolve_all"):
        cpu.resolve_all()
    elif hasattr(cpu, "_fp"):
        from ncpu.arm64.cpu import entries
        from ncpu.arm64.cpu.vregs import vr_views
        for k in range(len(cpu._fp)):
            entries.resolve(cpu._fp, k, state.regs, vr_views(state.v), cpu._st)
compiled = sorted({ev.data["dispatcher"].py_func.__qualname__ for _, ev in rec.buffer
                   if ev.is_start and ev.data.get("dispatcher") is not None})
print(json.dumps(compiled))
"""


def run_child(src: Path, cache: Path) -> tuple[float, list[str]]:
    env = dict(os.environ, PYTHONPATH=str(src), NUMBA_CACHE_DIR=str(cache))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, check=True, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src",
                        help="the src/ directory to measure (default: this checkout's)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ncpu-recompile-"))
    try:
        shutil.copytree(args.src / "ncpu", work / "src" / "ncpu",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        cpu_dir = work / "src" / "ncpu" / "arm64" / "cpu"
        results = []
        for i, (name, edited) in enumerate(STEPS):
            if edited:
                with open(cpu_dir / edited, "a") as f:
                    f.write(f"\n# benchmark edit {i}\n")
            seconds, compiled = run_child(work / "src", work / "cache")
            results.append({"step": name, "edited": edited, "cpu_s": round(seconds, 2),
                            "compiled": len(compiled), "functions": compiled})
            if not args.json:
                shown = ", ".join(compiled[:6]) + (", ..." if len(compiled) > 6 else "")
                print(f"{name:10s} {seconds:7.1f} s of CPU  {len(compiled):3d} compiled  {shown}", flush=True)
        if args.json:
            print(json.dumps(results, indent=1))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
