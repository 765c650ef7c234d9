"""Debugger figures: instructions per second with nothing set, with breakpoints set, with a
watchpoint set; and the latency of reverse-stepi after long runs.

    PYTHONPATH=src python benchmarks/debug_speed.py [--far 50000000]

Builds tests/debug/c/spin.c (-g -O0 -static) with aarch64-linux-gnu-gcc.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from elftools.elf.elffile import ELFFile

from ncpu.arm64.linux import Machine
from ncpu.debug.target import WRITE, Target

REPO = Path(__file__).resolve().parents[1]
SOURCE = REPO / "tests" / "debug" / "c" / "spin.c"


def build(tmp: str) -> str:
    out = os.path.join(tmp, "spin")
    subprocess.run(["aarch64-linux-gnu-gcc", "-g", "-O0", "-static", "-o", out, str(SOURCE)], check=True)
    return out


def symbols(binary: str) -> dict[str, int]:
    with open(binary, "rb") as f:
        table = ELFFile(f).get_section_by_name(".symtab")
        return {s.name: s["st_value"] for s in table.iter_symbols() if s.name}


def target(binary: str, rounds: int, root: str) -> Target:
    with open(os.devnull, "w") as null:
        kernel = Machine(root=root, stdio=(0, null.fileno(), 2)).boot(root, binary, [binary, str(rounds)], {})
        # the kernel keeps a HostFile over the fd number; give it its own descriptor
    null_fd = os.open(os.devnull, os.O_WRONLY)
    kernel.init.fds.files[1].fd = null_fd
    return Target(kernel, 10**12)


def rate(t: Target, n: int) -> float:
    start, count = time.perf_counter(), t.now
    t.resume(stop_at=t.now + n)
    return (t.now - count) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--window", type=int, default=300_000, help="instructions per rate figure")
    parser.add_argument("--far", type=int, default=50_000_000, help="largest count for reverse-stepi")
    opts = parser.parse_args()
    from ncpu.arm64.cpu import native
    native.set_threshold(0)       # the interpreter's figures (native code is on by default;
                                  # arm64_vs_qemu.py --native measures it)
    with tempfile.TemporaryDirectory() as tmp:
        binary = build(tmp)
        sym = symbols(binary)
        # plain run (no debugger) for comparison
        with open(os.devnull, "w") as null:
            for _ in range(2):                        # the second run, with the compiled loop loaded
                result = Machine(root=tmp, stdio=(0, null.fileno(), 2)).run(binary, [binary, "1000000"], {})
        print(f"plain ncpu arm64 run:            {result.instructions / result.wall_s / 1e6:8.3f} M instructions/s")
        t = target(binary, 10**9, tmp)
        t.resume(stop_at=200_000)                     # past start-up, inside the loop
        print(f"debugger, nothing set:           {rate(t, opts.window * 30) / 1e6:8.3f} M instructions/s")
        loop_page = sym["main"] // 4096
        far = [sym[n] for n in ("exit", "printf", "free") if sym[n] // 4096 != loop_page][:2]
        t.breakpoints.update(far)                                 # set, never hit, away from the loop
        rate(t, 1000)                  # the loop's instrumented variant: loaded (or compiled) on first use
        print(f"debugger, 2 breakpoints elsewhere:{rate(t, opts.window * 10) / 1e6:8.3f} M instructions/s")
        t.breakpoints.clear()
        t.breakpoints.add(sym["abort"])                           # never hit, but on the loop's page
        print(f"debugger, breakpoint on the loop's page (checked per instruction):"
              f" {rate(t, opts.window // 10) / 1e6:8.3f} M instructions/s")
        t.breakpoints.clear()
        page = sym["state"] // 4096
        other = next(a for n, a in sorted(sym.items()) if n in ("_dl_argv", "__libc_argv", "_IO_2_1_stderr_")
                     and a // 4096 != page)
        t.watchpoints[(WRITE, other, 8)] = None                   # a variable the loop never touches
        print(f"debugger, 1 watchpoint set:      {rate(t, opts.window * 10) / 1e6:8.3f} M instructions/s")
        t.watchpoints.clear()
        t.watchpoints[(WRITE, sym["state"], 8)] = None            # written every iteration
        hits, start, count = 0, time.perf_counter(), t.now
        while t.now - count < opts.window // 10:
            event = t.resume()
            assert event.kind == "watch", event
            hits += 1
            saved, t.watchpoints = t.watchpoints, {}            # step over the store, as gdb does
            t.resume(step_tid=event.tid)
            t.watchpoints = saved
        elapsed = time.perf_counter() - start
        print(f"debugger, watchpoint hit {hits} times: {(t.now - count) / elapsed / 1e6:8.3f} M instructions/s "
              f"({elapsed / hits * 1e3:.2f} ms per hit)")
        t.watchpoints.clear()
        for far in (10**6, 10**7, opts.far):
            if far <= t.now:
                continue
            t.resume(stop_at=far)
            times = []
            for _ in range(5):
                start = time.perf_counter()
                t.reverse(step_tid=t.current_tid())
                times.append(time.perf_counter() - start)
            print(f"reverse-stepi at {t.now:>11,} instructions: {statistics.median(times) * 1e3:8.1f} ms "
                  f"(median of 5; {len(t.snapshots)} snapshots held, {t._snapshot_seconds * 1e3:.0f} ms to take one)")


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
