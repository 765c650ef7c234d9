"""Where the cold compile of the ARM64 loop goes: numba's compile time per function.

    python benchmarks/arm64_compile_profile.py [--top N]

Compiles the loop and every executor it calls by address (entries.py) into an
empty, temporary numba cache (so every function is compiled, none loaded) and prints the process CPU time of the whole compile,
then the functions with the longest compiles, inclusive of the functions
they call (numba compiles a callee inside its caller's compile), in wall
seconds: on a loaded machine compare their shares, not the seconds.
"""
import argparse
import os
import struct
import tempfile
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=25, help="how many functions to list")
    args = parser.parse_args()
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="ncpu-compile-profile-")
    from numba.core.event import install_recorder

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
        cpu.resolve_all()       # the executors the loop calls by address
    print(f"import + cold compile: {time.process_time() - t0:.1f} s of CPU")
    starts, rows = {}, []
    for ts, ev in rec.buffer:
        disp = ev.data.get("dispatcher")
        key = (disp.py_func.__module__.rsplit(".", 1)[-1] + "." + disp.py_func.__qualname__ if disp else "?",
               str(ev.data.get("args")))
        if ev.is_start:
            starts[key] = ts
        elif key in starts:
            rows.append((ts - starts.pop(key), key[0]))
    rows.sort(reverse=True)
    total = rows[0][0] if rows else 1.0
    for dt, name in rows[:args.top]:
        print(f"{dt:9.1f} s wall  {100 * dt / total:5.1f}%  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
