"""Speed of the AArch64 CPU core on loads and stores, one kind at a time.

For each kind, a loop of 8 copies of the instruction (all aligned, inside one
mapped page) plus subs/b.ne runs through Cpu.run; printed: million
instructions per CPU-second, best of 3 runs (process CPU time, which carries
over from a shared machine to an idle one).
Usage: python benchmarks/arm64_mem_loop.py [KIND ...]   (default: all)
"""
import argparse
import struct
import time

from ncpu.arm64.cpu import Cpu, CpuState, Memory, StopReason

CODE, DATA = 0x10000, 0x20000
KINDS = {
    "add": 0x91000C00,   # add  x0, x0, #3            (no memory: the reference row)
    "ldr": 0xF94007E3,   # ldr  x3, [sp, #8]
    "str": 0xF9000BE3,   # str  x3, [sp, #16]
    "ldrb": 0x39400FE6,  # ldrb w6, [sp, #3]
    "ldr d": 0xFD4007E0,  # ldr  d0, [sp, #8]
    "str d": 0xFD000BE0,  # str  d0, [sp, #16]
    "ldp": 0xA94217E4,   # ldp  x4, x5, [sp, #32]
    "stp": 0xA90317E4,   # stp  x4, x5, [sp, #48]
    "ldp q": 0xAD4207E0,  # ldp  q0, q1, [sp, #64]
    "stp q": 0xAD0307E0,  # stp  q0, q1, [sp, #96]
}
COPIES = 8


def run(word: int, rounds: int):
    body = [word] * COPIES
    back = (-(COPIES + 1)) & 0x7FFFF
    words = [0xD2800000] + body + [0xF1000421, 0x54000001 | back << 5, 0xD4000001]  # mov; body; subs; b.ne; svc
    mem = Memory()
    mem.map(CODE, 0x1000, 5)
    mem.map(DATA, 0x1000, 3)
    mem.write(CODE, b"".join(struct.pack("<I", w) for w in words))
    mem.write(DATA, bytes(0x1000))                      # touch the data page before timing
    s = CpuState()
    s.pc, s.sp = CODE, DATA + 0x800
    s.x[1] = rounds
    cpu = Cpu(mem, s)
    c = time.process_time()
    stop = cpu.run(20 * rounds + 100)
    seconds = time.process_time() - c
    assert stop.reason is StopReason.SVC, stop
    return stop.steps, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kinds", nargs="*", metavar="KIND",
                        help=f"instructions to time (default: all): {', '.join(KINDS)}")
    kinds = parser.parse_args().kinds or list(KINDS)
    from ncpu.arm64.cpu import native
    native.set_threshold(0)       # the interpreter's figures (native code is on by default;
                                  # arm64_vs_qemu.py --native measures it)
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        parser.error(f"unknown kind {unknown[0]!r}; choose from: {', '.join(KINDS)}")
    run(KINDS["add"], 10)                               # compile or load the loop first
    print(f"{'instruction':12s} {'MIPS per CPU-second':>20s}")
    for kind in kinds:
        best = 0.0
        for _ in range(3):
            steps, seconds = run(KINDS[kind], 300_000)
            best = max(best, steps / seconds / 1e6)
        print(f"{kind:12s} {best:20.1f}")


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
