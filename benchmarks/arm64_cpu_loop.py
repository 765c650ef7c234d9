"""Speed of the AArch64 CPU core on a tight integer loop.

Runs a hand-encoded loop (add, sub, eor, subs, b.ne: 5 instructions per
iteration) through Cpu.run and prints instructions, seconds, MIPS, and the
one-time cost of the first call (numba compile or cache load) separately.
Both wall-clock and process CPU time are shown: on a shared machine the
rate per CPU-second is the figure that carries over to an idle core.
Usage: python benchmarks/arm64_cpu_loop.py [--native] [iterations]   (default 20,000,000)
Interpreted (the loop of run.py) unless --native: then the hot loop is translated to native
code (arm64/cpu/native.py), as `ncpu arm64` does by default.
"""
import argparse
import struct
import time

t0 = time.perf_counter()
from ncpu.arm64.cpu import Cpu, CpuState, Memory, StopReason  # noqa: E402

LOOP = [
    0xD2800000,  # mov  x0, #0
    0xD2800022,  # mov  x2, #1
    # loop:
    0x91000C00,  # add  x0, x0, #3
    0xCB020000,  # sub  x0, x0, x2
    0xCA000043,  # eor  x3, x2, x0
    0xF1000421,  # subs x1, x1, #1
    0x54FFFF81,  # b.ne loop
    0xD4000001,  # svc  #0
]


def run(iterations: int):
    mem = Memory()
    mem.map(0x10000, 0x1000, 5)
    mem.write(0x10000, b"".join(struct.pack("<I", w) for w in LOOP))
    s = CpuState()
    s.pc = 0x10000
    s.x[1] = iterations
    cpu = Cpu(mem, s)
    t, c = time.perf_counter(), time.process_time()
    stop = cpu.run(10 * iterations + 100)
    dt, dc = time.perf_counter() - t, time.process_time() - c
    assert stop.reason is StopReason.SVC and int(s.x[0]) == 2 * iterations, (stop, s)
    return stop.steps, dt, dc


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("iterations", type=int, nargs="?", default=20_000_000,
                        help="loop iterations, 5 instructions each (default 20,000,000)")
    parser.add_argument("--native", action="store_true",
                        help="translate the hot loop to native code (default: interpreted)")
    opts = parser.parse_args()
    n = opts.iterations
    from ncpu.arm64.cpu import native
    native.set_threshold(native.ON_THRESHOLD if opts.native else 0)
    _, first, first_cpu = run(10)
    print(f"import + first call (compile or cache load): {time.perf_counter() - t0:.2f} s, "
          f"{time.process_time():.2f} s of CPU (first run call {first:.2f} s)")
    steps, dt, dc = run(n)
    print(f"instructions: {steps:,}  seconds: {dt:.3f}  MIPS: {steps / dt / 1e6:.1f}  "
          f"per CPU-second: {steps / dc / 1e6:.1f}")


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
