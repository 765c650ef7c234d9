"""Random instruction *sequences* run on our CPU and on unicorn, compared at the end.

The single-instruction differential test starts every instruction from a
fresh random state, so it never sees a value that one instruction computes
and the next one consumes: flags set by an ADDS and read by a CSEL or a
B.cond, a register written as W and read as X, an FPSR flag that must stay
set, a store that a later load of another width reads back, a load/store
exclusive pair. Here straight-line programs of random words (with forward
branches inside the program) draw their registers from a small pool, so that
data flows from one instruction to the next; the full state is compared once
at the end (and on a divergence, the shortest diverging prefix is found).

Registers: x0-x9 / v0-v9 are the pool; x27 holds a small register offset and
x28 the base address of every load and store (neither is ever written: memory
words use x28 as base and x27 as offset, other words draw from the pool).
"""
from __future__ import annotations

import random
import struct
from dataclasses import dataclass

import arm64cpu_harness as H
from ncpu.arm64.cpu import StopReason
from ncpu.arm64.cpu import decode_table as T
from ncpu.arm64.cpu.decoder import decode

POOL = range(10)
OFFSET_REG, BASE_REG = 27, 28
REGISTER_FIELDS = ("rd", "rn", "rm", "ra", "rt", "rt2", "rs")
BRK = 0xD4200000
# forward branches: entry name -> its offset field (in words)
BRANCH_OFFSET = {"B": "imm26", "BL": "imm26", "B_COND": "imm19", "CBZ": "imm19", "CBNZ": "imm19",
                 "TBZ": "imm14", "TBNZ": "imm14"}
CLASSES = ("int", "mem", "fp", "simd")
# Round to nearest only: other FPCR rounding modes reach only FRINT* and conversions here, and
# flush-to-zero is not modelled (docs/arm64.md, known limits); with them, FADD & co. differ by an ulp.
FPCR_MODES = (0,)


def _entries(classes):
    return [e for e in T.TABLE if e.cls in classes or e.name in BRANCH_OFFSET]


def _register(rng: random.Random, field: str) -> int:
    # 31 (xzr or sp, wzr, v31) now and then; sp may be written, it is never a base
    return 31 if field != "rd" and rng.random() < 0.08 or field == "rd" and rng.random() < 0.04 \
        else rng.choice(POOL)


def exclusive_shape(e: T.Entry, w: int):
    """(size, pair) of a load/store-exclusive word, None for any other word (and for LDAR/STLR)."""
    if e.name != "LDST_EX":
        return None
    f = e.extract(w)
    return None if f["o2"] else (f["size"], f["o1"])


def random_instruction(rng: random.Random, e: T.Entry, index: int, length: int) -> int | None:
    """A word of entry e with registers from the pool (memory: base x28, offset x27), or None."""
    opid = T.BY_NAME_ID[e.name]
    for _ in range(50):
        fields = {k: rng.getrandbits(w) for k, (lsb, w) in e.fields.items()}
        for k in REGISTER_FIELDS:
            if k in fields:
                fields[k] = _register(rng, k)
        if e.cls == "mem" and "rn" in fields:
            fields["rn"] = BASE_REG
            if "rm" in fields and e.name not in ("CAS", "CASP", "ATOMIC", "LDST_EX"):
                fields["rm"] = OFFSET_REG
            if "imm12" in fields:
                fields["imm12"] &= 0x3F
        if e.name == "LDR_LIT":      # a literal inside the code page (the program, then zeros)
            fields["imm19"] = rng.randint(-index, 1000 - index) & 0x7FFFF
        if e.name in BRANCH_OFFSET:
            fields[BRANCH_OFFSET[e.name]] = rng.randint(1, length - index)   # lands inside or on the end
        w = e.encode(**fields)
        if int(decode(w)) == opid and not H.unpredictable(e, w):
            return w
    return None


@dataclass
class Case:
    words: list[int]
    xs: list[int]
    sp: int
    nzcv: int
    vs: list[tuple[int, int]]
    fpcr: int


def random_case(rng: random.Random, length: int, classes=CLASSES, fpcr_modes=FPCR_MODES) -> Case:
    ents = _entries(classes)
    words, shape = [], None
    while len(words) < length:
        e = rng.choice(ents)
        w = random_instruction(rng, e, len(words), length)
        if w is None:
            continue
        # a store-exclusive of another size than its load-exclusive: CONSTRAINED UNPREDICTABLE
        # whether it succeeds (qemu fails it, we store), so a program keeps one exclusive size
        this = exclusive_shape(e, w)
        if this is not None and shape not in (None, this):
            continue
        shape = shape or this
        words.append(w)
    xs = [H.random_x(rng) for _ in range(31)]
    xs[OFFSET_REG] = rng.randrange(-64, 64) & H.U64
    xs[BASE_REG] = H.MID + (rng.randrange(-1024, 1024) & ~63)
    vs = H.edge_vectors(rng) if rng.random() < 0.3 else [H.random_v(rng) for _ in range(32)]
    return Case(words, xs, H.MID - 16 * rng.randrange(0, 32), rng.getrandbits(4), vs, rng.choice(fpcr_modes))


class Outcome:
    """Where a run ended ('end', 'stop' at pc) and, at the end, every register, FPSR and memory."""

    def __init__(self, kind: str, pc: int, regs=None, fpsr=0, mem=b""):
        self.kind, self.pc, self.regs, self.fpsr, self.mem = kind, pc, regs, fpsr, mem


def _program(words: list[int]) -> bytes:
    return struct.pack(f"<{len(words) + 1}I", *words, BRK)


def run_unicorn(uc: H.Unicorn, case: Case, init: bytes) -> Outcome:
    uc.uc.mem_write(H.SCRATCH, init)
    uc.uc.mem_write(H.CODE, _program(case.words))
    uc.set_state(case.xs, case.sp, case.nzcv, case.vs, case.fpcr)
    end = H.CODE + 4 * len(case.words)
    try:
        uc.uc.emu_start(H.CODE, end)
    except uc.UcError:
        return Outcome("stop", uc.uc.reg_read(uc.A.UC_ARM64_REG_PC))
    regs = uc.uc.reg_read_batch(uc.regs)
    return Outcome("end", end, regs, uc.uc.reg_read(uc.A.UC_ARM64_REG_FPSR),
                   bytes(uc.uc.mem_read(H.SCRATCH, H.SCRATCH_SIZE)))


def run_ours(us: H.Ours, case: Case, init: bytes) -> Outcome:
    us.mem.write(H.SCRATCH, init)
    us.mem.write(H.CODE, _program(case.words))
    us.set_state(case.xs, case.sp, case.nzcv, case.vs, case.fpcr)
    us.state.regs[37] = -1          # an open exclusive monitor, as on a fresh unicorn
    stop = us.cpu.run(len(case.words) + 1)
    s = us.state
    end = H.CODE + 4 * len(case.words)
    if stop.reason is not StopReason.BRK or s.pc != end:
        return Outcome("stop", s.pc)
    regs = [int(v) for v in s.x] + [s.sp, s.pc, s.nzcv << 28, s.fpcr]
    regs += [int(s.v[i, 0]) | int(s.v[i, 1]) << 64 for i in range(32)]
    return Outcome("end", end, regs, s.fpsr, us.mem.read(H.SCRATCH, H.SCRATCH_SIZE))


def differences(a: Outcome, b: Outcome, fpsr_mask: int) -> list[str]:
    if a.kind != b.kind or a.pc != b.pc:
        return [f"unicorn {a.kind} at {a.pc:#x}, ours {b.kind} at {b.pc:#x}"]
    if a.kind == "stop":
        return []            # both stopped (fault or undefined) at the same instruction
    diffs = [f"{H.REG_NAMES[i]}: uc={x:#x} ours={y:#x}" for i, (x, y) in enumerate(zip(a.regs, b.regs)) if x != y]
    if (a.fpsr ^ b.fpsr) & fpsr_mask:
        diffs.append(f"fpsr: uc={a.fpsr:#x} ours={b.fpsr:#x}")
    if a.mem != b.mem:
        i = next(k for k in range(len(a.mem)) if a.mem[k] != b.mem[k])
        diffs.append(f"mem @{H.SCRATCH + i:#x}: uc={a.mem[i]:#x} ours={b.mem[i]:#x}")
    return diffs


def _describe(case: Case, diffs: list[str], upto: int) -> str:
    from ncpu.arm64.cpu.disasm import disassemble
    lines = disassemble(_program(case.words[:upto]), H.CODE)[:upto]
    program = "; ".join(f"{case.words[i]:08x} {text}" for i, (_, text) in enumerate(lines))
    return f"first {upto} of {len(case.words)} words diverge (fpcr={case.fpcr:#x}, nzcv={case.nzcv:#x}): " \
           f"{'; '.join(diffs[:4])}\n    {program}"


def compare_sequences(n: int, length: int, seed: int, classes=CLASSES, fpsr_mask: int = 0x9F | 1 << 27,
                      fpcr_modes=FPCR_MODES):
    """Run n random sequences; returns (instructions run, completed sequences, divergence reports)."""
    rng = random.Random(seed)
    uc, us = H.Unicorn(), H.Ours()
    init = bytes(rng.getrandbits(8) for _ in range(H.SCRATCH_SIZE))
    bad, instructions, completed = [], 0, 0
    for _ in range(n):
        case = random_case(rng, length, classes, fpcr_modes)
        ours = run_ours(us, case, init)
        diffs = differences(run_unicorn(uc, case, init), ours, fpsr_mask)
        if diffs:
            # a long-lived unicorn very rarely reports stale state: count what a fresh one confirms
            diffs = differences(run_unicorn(H.Unicorn(), case, init), ours, fpsr_mask)
        instructions += len(case.words)
        completed += ours.kind == "end"
        if diffs:
            bad.append(_shortest_prefix(case, init, fpsr_mask))
    return instructions, completed, bad


def _shortest_prefix(case: Case, init: bytes, fpsr_mask: int) -> str:
    """The report for the shortest prefix of the program that still diverges."""
    for upto in range(1, len(case.words) + 1):
        # a branch past a prefix's end lands on zero words (UDF) on both sides: no divergence
        sub = Case(case.words[:upto], case.xs, case.sp, case.nzcv, case.vs, case.fpcr)
        diffs = differences(run_unicorn(H.Unicorn(), sub, init), run_ours(H.Ours(), sub, init), fpsr_mask)
        if diffs:
            return _describe(case, diffs, upto)
    return _describe(case, ["(no prefix diverges when rerun on fresh machines)"], len(case.words))
