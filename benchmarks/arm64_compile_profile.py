"""Where the cold compile of the ARM64 loop goes: numba's compile time per function.

    python benchmarks/arm64_compile_profile.py [--top N] [--loop-only]

Compiles the loop and every executor it calls by address (entries.py) into an
empty, temporary numba cache (so every function is compiled, none loaded) and
prints the process CPU time of the whole compile, then, per function, how many
times numba compiled it (one per signature: more than one for the same
argument types means it was specialised on something else), its own time (the
compiles of the functions it calls left out, so the column adds up to the
whole) and its time with them (numba compiles a callee inside its caller's
compile), in wall seconds: on a loaded machine compare their shares, not the
seconds.  --loop-only leaves the out-of-line executors out: what the cold
compile of `benchmarks/arm64_cpu_loop.py` pays.  It also prints the size of the loop's
LLVM IR as numba hands it to LLVM (lines of instructions in run_loop's module): what LLVM's
passes and machine code grow with.
"""
import argparse
import os
import struct
import tempfile
import time
from collections import defaultdict


def _name(event) -> str:
    disp = event.data.get("dispatcher")
    return disp.py_func.__module__.rsplit(".", 1)[-1] + "." + disp.py_func.__qualname__ if disp else "?"


def per_function(buffer) -> dict:
    """{function: [compiles, own seconds, seconds with its callees]} from numba:compile events
    (they nest: a callee's compile starts and ends inside its caller's)."""
    out = defaultdict(lambda: [0, 0.0, 0.0])
    stack = []                          # [name, start, seconds of the callees' compiles]
    for ts, event in buffer:
        if event.is_start:
            stack.append([_name(event), ts, 0.0])
            continue
        name, start, callees = stack.pop()
        took = ts - start
        row = out[name]
        row[0] += 1
        row[1] += took - callees
        row[2] += took
        if stack:
            stack[-1][2] += took
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=25, help="how many functions to list")
    parser.add_argument("--loop-only", action="store_true",
                        help="the loop and what it calls directly, not the executors it calls by address")
    args = parser.parse_args()
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="ncpu-compile-profile-")
    from numba.core import codegen
    from numba.core.event import install_recorder

    loop_ir = []                        # instruction lines of run_loop's own module
    add_ir_module = codegen.CPUCodeLibrary.add_ir_module

    def counted(library, module):
        if any(f.name.startswith("_ZN4ncpu5arm643cpu3run8run_loop") and f.blocks for f in module.functions):
            loop_ir.append(sum(len(b.instructions) for f in module.functions for b in f.blocks))
        return add_ir_module(library, module)
    codegen.CPUCodeLibrary.add_ir_module = counted

    t0 = time.process_time()
    with install_recorder("numba:compile") as rec:
        from ncpu.arm64.cpu import Cpu, CpuState, Memory
        mem = Memory()
        mem.map(0x10000, 0x1000, 5)
        mem.write(0x10000, struct.pack("<I", 0xD4000001))       # svc #0
        state = CpuState()
        state.pc = 0x10000
        cpu = Cpu(mem, state)
        cpu.run(10)
        if not args.loop_only:
            cpu.resolve_all()       # the executors the loop calls by address
    print(f"import + cold compile: {time.process_time() - t0:.1f} s of CPU")
    print(f"the loop's IR as handed to LLVM: {', '.join(f'{n:,}' for n in loop_ir)} instructions")
    rows = per_function(rec.buffer)
    own_total = sum(r[1] for r in rows.values()) or 1.0
    print(f"{len(rows)} functions, {sum(r[0] for r in rows.values())} compiles, {own_total:.1f} s of wall in all")
    print(f"{'compiles':>8} {'own s':>8} {'share':>6} {'with callees s':>15}  function")
    for name, (n, own, inclusive) in sorted(rows.items(), key=lambda kv: -kv[1][1])[:args.top]:
        print(f"{n:>8} {own:>8.1f} {100 * own / own_total:>5.1f}% {inclusive:>15.1f}  {name}")
    return 0


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
