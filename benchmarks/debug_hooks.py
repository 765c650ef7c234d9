"""Cost of the loop's debug hooks (src/ncpu/arm64/cpu/hooks.py), in instructions per CPU-second.

Runs the tight integer loop of arm64_cpu_loop.py (add, sub, eor, subs, b.ne)
through Cpu.run with: no hooks (the loop compiled with hk=None, the one
`ncpu arm64` runs), the instrumented loop with nothing enabled, a trace of
pcs, a trace with registers, 100 breakpoints set and never hit, and one
breakpoint hit every iteration whose Python callback lets the run go on.
Watchpoints need no hook: they are page protection (src/ncpu/debug/target.py),
free while the watched page is not touched, one trap to Python per access to
it; benchmarks/debug_speed.py measures them.  Each figure is the best of 3 runs, by CPU time
(time.process_time), so that a loaded machine does not blur it; the first
use of each loop variant (compile or cache load) is printed apart.

    PYTHONPATH=src python benchmarks/debug_hooks.py [iterations]   (default 4,000,000)
"""
import struct
import sys
import time

from ncpu.arm64.cpu import Cpu, CpuState, Memory, StopReason
from ncpu.arm64.cpu.hooks import Hooks

CODE = 0x10000
LOOP = [
    0xD2800000,  # mov  x0, #0
    0xD2800022,  # mov  x2, #1
    # loop:     (CODE + 8)
    0x91000C00,  # add  x0, x0, #3
    0xCB020000,  # sub  x0, x0, x2
    0xCA000043,  # eor  x3, x2, x0
    0xF1000421,  # subs x1, x1, #1
    0x54FFFF81,  # b.ne loop
    0xD4000001,  # svc  #0
]


def run(iterations: int, hooks=None, repeat: int = 3) -> tuple[float, float]:
    """(first call's CPU seconds, best instructions per CPU-second)"""
    best, first = 0.0, None
    for _ in range(repeat):
        mem = Memory()
        mem.map(CODE, 0x1000, 5)
        mem.write(CODE, b"".join(struct.pack("<I", w) for w in LOOP))
        s = CpuState()
        s.pc = CODE
        s.x[1] = iterations
        cpu = Cpu(mem, s)
        cpu.hooks = hooks() if hooks else None
        c = time.process_time()
        stop = cpu.run(10 * iterations + 100)
        dc = time.process_time() - c
        assert stop.reason is StopReason.SVC and int(s.x[0]) == 2 * iterations, (stop, s)
        if first is None:
            first = dc
            continue
        best = max(best, stop.steps / dc)
    return first, best


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000
    from ncpu.arm64.cpu import native
    native.set_threshold(0)       # the interpreter's figures (native code is on by default;
                                  # arm64_vs_qemu.py --native measures it)
    rows = []
    traced = [0]

    def count(rows_):
        traced[0] += len(rows_)

    cases = [
        ("no hooks (ncpu arm64)", None),
        ("instrumented loop, nothing enabled", lambda: Hooks()),
        ("trace of pc, word, count", lambda: Hooks(trace=True, on_trace=count)),
        ("trace with registers", lambda: Hooks(trace=True, regs=True, on_trace=count)),
        ("100 breakpoints on other pages", lambda: Hooks(breakpoints=range(CODE + 0x4000, CODE + 0x4190, 4))),
        ("100 breakpoints on the loop's page, none hit",
         lambda: Hooks(breakpoints=range(CODE + 0x400, CODE + 0x590, 4))),
        ("1 breakpoint hit every iteration (callback)",
         lambda: Hooks(breakpoints=[CODE + 8], on_break=lambda cpu, pc: False)),
    ]
    for name, hooks in cases:
        iterations = n if "callback" not in name else n // 40
        first, rate = run(iterations, hooks)
        rows.append((name, rate, first))
    for name, rate, first in rows:
        print(f"{name:45s} {rate / 1e6:8.1f} M instructions per CPU-second  (first call {first:.2f} s)")


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
