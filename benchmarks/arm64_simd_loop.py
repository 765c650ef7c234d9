"""Cost of one vector instruction of the AArch64 CPU core, one kind at a time.

For each kind, a loop of 4 copies of the instruction plus subs/b.ne runs
through Cpu.run (the shape of the note that measured the vector rows of
gcc's vectorised loops); printed: nanoseconds per instruction of the kind,
marginal over the loop's own cost (the same loop around 4 integer adds is
subtracted), best of 3 runs of process CPU time (which carries over from a
shared machine to an idle one).  The structure loads and stores (ld1 v ...
st1 lane) read and write a data page that x2 points to.
Usage: python benchmarks/arm64_simd_loop.py [KIND ...]   (default: all)
"""
import argparse
import struct
import time

from ncpu.arm64.cpu import Cpu, CpuState, Memory, StopReason
from ncpu.arm64.cpu import decode_table as T

CODE = 0x10000
DATA = 0x20000                  # x2 points here: the structure loads and stores read and write it
_ST = T.BY_NAME
KINDS = {
    "add x": 0x91000C00,        # add  x0, x0, #3           (the reference: an integer row)
    "add v": 0x4E228420,        # add  v0.16b, v1.16b, v2.16b
    "shl v": 0x4F0B5420,        # shl  v0.16b, v1.16b, #3
    "ushr v": 0x6F1D0420,       # ushr v0.8h, v1.8h, #3
    "sshr v": 0x4F3D0420,       # sshr v0.4s, v1.4s, #3
    "usra v": 0x6F3D1420,       # usra v0.4s, v1.4s, #3
    "uxtl v": 0x2F08A420,       # uxtl v0.8h, v1.8b
    "sxtl2 v": 0x4F10A420,      # sxtl2 v0.4s, v1.8h
    "uzp1 v": 0x4E021820,       # uzp1 v0.16b, v1.16b, v2.16b
    "uzp2 v": 0x4E425820,       # uzp2 v0.8h, v1.8h, v2.8h
    "zip1 v": 0x4E023820,       # zip1 v0.16b, v1.16b, v2.16b
    "zip2 v": 0x4E827820,       # zip2 v0.4s, v1.4s, v2.4s
    "trn1 v": 0x4E022820,       # trn1 v0.16b, v1.16b, v2.16b
    "ext v": 0x6E021820,        # ext  v0.16b, v1.16b, v2.16b, #3
    "tbl v": 0x4E020020,        # tbl  v0.16b, {v1.16b}, v2.16b
    "fadd v": 0x4E62D420,       # fadd v0.2d, v1.2d, v2.2d
    "fmla v": 0x4E22CC20,       # fmla v0.4s, v1.4s, v2.4s
    "fmla ve": 0x4FC21820,      # fmla v0.2d, v1.2d, v2.d[1]  (by element: gcc's vectorised matrix product)
    "shrn v": 0x0F0D8420,       # shrn v0.8b, v1.8h, #3
    "dup v": 0x4E040C40,        # dup  v0.4s, w2
    "movi v": 0x4F02E740,       # movi v0.16b, #0x5a
    "umov w": 0x0E0A3C23,       # umov w3, v1.h[2]
    "ins v": 0x4E0C1C40,        # mov  v0.s[1], w2
    "ld1 v": _ST["LD1_m1"].encode(q=1, size=0, rn=2, vt=0),        # ld1  {v0.16b}, [x2]
    "ld2 v": _ST["LD2_m"].encode(q=1, size=1, rn=2, vt=0),         # ld2  {v0.8h, v1.8h}, [x2]
    "st2 v": _ST["ST2_m"].encode(q=1, size=2, rn=2, vt=4),         # st2  {v4.4s, v5.4s}, [x2]
    "ld4 v": _ST["LD4_m"].encode(q=1, size=0, rn=2, vt=0),         # ld4  {v0.16b-v3.16b}, [x2]
    "ld1r v": _ST["LD1R"].encode(q=1, size=2, rn=2, vt=0),         # ld1r {v0.4s}, [x2]
    "st1 lane": _ST["ST1_e"].encode(q=1, sc=2, s=1, size=0, rn=2, vt=3),   # st1 {v3.s}[3], [x2]
}
COPIES = 4
ROUNDS = 200_000


def run(word: int, rounds: int) -> tuple[int, float]:
    back = (-(COPIES + 1)) & 0x7FFFF
    words = [word] * COPIES + [0xF1000421, 0x54000001 | back << 5, 0xD4000001]   # body; subs; b.ne; svc
    mem = Memory()
    mem.map(CODE, 0x1000, 5)
    mem.write(CODE, b"".join(struct.pack("<I", w) for w in words))
    mem.map(DATA, 0x1000, 3)
    s = CpuState()
    s.pc = CODE
    s.x[1] = rounds
    s.x[2] = DATA
    for r in range(32):
        s.v[r] = (0x0123456789ABCDEF * (r + 1) & (1 << 64) - 1, 0xFEDCBA9876543210 ^ r)
    cpu = Cpu(mem, s)
    c = time.process_time()
    stop = cpu.run((COPIES + 2) * rounds + 10)
    seconds = time.process_time() - c
    assert stop.reason is StopReason.SVC, stop
    return stop.steps, seconds


def best_seconds(word: int) -> float:
    return min(run(word, ROUNDS)[1] for _ in range(3))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kinds", nargs="*", metavar="KIND",
                        help=f"instructions to time (default: all): {', '.join(KINDS)}")
    kinds = parser.parse_args().kinds or [k for k in KINDS if k != "add x"]
    from ncpu.arm64.cpu import native
    native.set_threshold(0)       # the interpreter's figures (native code is on by default;
                                  # arm64_vs_qemu.py --native measures it)
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        parser.error(f"unknown kind {unknown[0]!r}; choose from: {', '.join(KINDS)}")
    for word in KINDS.values():                         # compile or load the loop, decode every kind
        run(word, 10)
    base = best_seconds(KINDS["add x"])
    print(f"loop of {COPIES} integer adds + subs + b.ne: {base / ROUNDS / (COPIES + 2) * 1e9:.1f} ns per instruction")
    print(f"{'instruction':12s} {'ns per instruction (marginal)':>30s}")
    for kind in kinds:
        ns = (best_seconds(KINDS[kind]) - base) / (ROUNDS * COPIES) * 1e9
        print(f"{kind:12s} {ns:30.1f}")


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
