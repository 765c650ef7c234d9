"""End-to-end runs without the Linux layer: assembled code, self-modifying
code, stops (SVC, BRK, undefined, budget) and system registers."""
import shutil
import struct
import subprocess

import pytest

from ncpu.arm64.cpu import Cpu, CpuState, Memory, StopReason, disassemble
from ncpu.arm64.cpu import sysregs
from ncpu.arm64.cpu.entries import NATIVE

CODE, DATA = 0x400000, 0x600000


def machine(words, data_size=0x4000):
    m = Memory()
    m.map(CODE, 0x2000, 7)
    m.write(CODE, b"".join(struct.pack("<I", w) for w in words))
    m.map(DATA, data_size, 3)
    s = CpuState()
    s.pc = CODE
    s.sp = DATA + data_size
    return m, s, Cpu(m, s)


def assemble(src: str) -> list[int]:
    """Assemble with binutils (gcc-aarch64-linux-gnu, installed by scripts/setup.sh --test)."""
    gas = shutil.which("aarch64-linux-gnu-as")
    objcopy = shutil.which("aarch64-linux-gnu-objcopy")
    assert gas and objcopy, "aarch64 binutils missing: run scripts/setup.sh --test"
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        open(f"{d}/a.s", "w").write(src)
        subprocess.run([gas, "-march=armv8.2-a", "-o", f"{d}/a.o", f"{d}/a.s"], check=True)
        subprocess.run([objcopy, "-O", "binary", "-j", ".text", f"{d}/a.o", f"{d}/a.bin"], check=True)
        raw = open(f"{d}/a.bin", "rb").read()
    return list(struct.unpack(f"<{len(raw) // 4}I", raw))


def test_hand_encoded_loop():
    # mov x0,#0; mov x1,#1000; loop: add x0,x0,#3; subs x1,x1,#1; b.ne loop; svc #0
    m, s, cpu = machine([0xD2800000, 0xD2807D01, 0x91000C00, 0xF1000421, 0x54FFFFC1, 0xD4000001])
    stop = cpu.run(10_000)
    assert stop.reason is StopReason.SVC and stop.steps == 3003 and cpu.instructions == 3003
    assert int(s.x[0]) == 3000 and s.pc == CODE + 24


def test_assembled_program_integer_memory_fp():
    words = assemble("""
        // sum of 1..100 by a loop, a memcpy by ldp/stp, a factorial by mul, an fp sqrt
        mov x0, #0
        mov x1, #100
    1:  add x0, x0, x1
        subs x1, x1, #1
        b.ne 1b
        mov x2, #0x600000
        mov x3, #0x1122
        movk x3, #0x3344, lsl #16
        stp x3, x0, [x2, #16]!
        ldp x4, x5, [x2], #8
        mov x6, #1
        mov x7, #10
    2:  mul x6, x6, x7
        sub x7, x7, #1
        cbnz x7, 2b
        mov x8, #2
        scvtf d0, x8
        fsqrt d1, d0
        fmul d2, d1, d1
        fcvtzs x9, d2
        ldxr x10, [x2]
        add x10, x10, #1
        stxr w11, x10, [x2]
        ldadd x6, x12, [x2]
        clz x13, x0
        svc #0
    """)
    m, s, cpu = machine(words)
    stop = cpu.run(100_000)
    assert stop.reason is StopReason.SVC
    x = [int(v) for v in s.x]
    assert x[0] == 5050
    assert x[4] == 0x33441122 and x[5] == 5050
    assert x[6] == 3628800
    assert x[9] == 2           # sqrt(2)^2 = 2.0000000000000004 truncates to 2
    assert x[11] == 0 and x[12] == 5050 + 1
    assert m.read_u64(DATA + 24) == 5051 + 3628800
    assert x[13] == 64 - (5050).bit_length()


def test_self_modifying_code():
    # mov x0, #1; svc #0 -- run, then patch the mov to mov x0, #2 and run again
    m, s, cpu = machine([0xD2800020, 0xD4000001])
    assert cpu.run(10).reason is StopReason.SVC and int(s.x[0]) == 1
    m.write(CODE, struct.pack("<I", 0xD2800040))                     # host-side write
    s.pc = CODE
    assert cpu.run(10).reason is StopReason.SVC and int(s.x[0]) == 2
    # guest-side write: str w1, [x2] patches the next instruction, which then runs
    prog = [0xB9000041, 0xD2800000, 0xD4000001]                      # str w1,[x2]; mov x0,#0; svc
    m, s, cpu = machine(prog)
    s.x[1], s.x[2] = 0xD28000E0, CODE + 4                            # mov x0, #7
    assert cpu.run(10).reason is StopReason.SVC                       # decodes the page first
    assert int(s.x[0]) == 7


def test_stops_undefined_brk_budget():
    m, s, cpu = machine([0x00000000])
    stop = cpu.run(10)
    assert stop.reason is StopReason.UNDEFINED and stop.word == 0 and s.pc == CODE and stop.steps == 0
    m, s, cpu = machine([0xD503201F, 0xD4200020])                    # nop; brk #1
    stop = cpu.run(10)
    assert stop.reason is StopReason.BRK and s.pc == CODE + 4 and stop.steps == 1
    m, s, cpu = machine([0x14000000])                                # b .
    stop = cpu.run(12345)
    assert stop.reason is StopReason.BUDGET and stop.steps == 12345


def test_resolve_all_fills_every_address_and_runs_alike():
    """Cpu.resolve_all (for the compile benchmarks) resolves what run() would on first use;
    the cold row afterwards (brk, out of line) runs without a resolve stop and stops alike."""
    m, s, cpu = machine([0xD503201F, 0xD4200020])                    # nop; brk #1
    cpu.resolve_all()
    assert all(cpu._fp[:NATIVE])                  # the addresses (the last entry: native's threshold)
    stop = cpu.run(10)
    assert stop.reason is StopReason.BRK and s.pc == CODE + 4 and stop.steps == 1


def test_system_registers_as_qemu_user():
    def mrs(reg):
        return 0xD5300000 | (reg << 5)
    words = [mrs(sysregs.MIDR_EL1), mrs(sysregs.DCZID_EL0) | 1, mrs(sysregs.CNTFRQ_EL0) | 2,
             mrs(sysregs.CNTVCT_EL0) | 3, 0xD51BD044,                # msr tpidr_el0, x4
             mrs(sysregs.TPIDR_EL0) | 5, 0xD4000001]
    m, s, cpu = machine(words)
    s.x[4] = 0xABCDEF
    cpu.instructions = 1000
    assert cpu.run(100).reason is StopReason.SVC
    assert int(s.x[0]) == 0xF0510 and int(s.x[1]) == 7 and int(s.x[2]) == 62_500_000
    assert int(s.x[3]) == 1003 and int(s.x[5]) == 0xABCDEF and s.tpidr_el0 == 0xABCDEF


def test_dc_zva_zeroes_a_block():
    m, s, cpu = machine([0xD50B7420, 0xD4000001])                    # dc zva, x0
    m.write(DATA, b"\xff" * 0x1000)
    s.x[0] = DATA + 0x230
    assert cpu.run(10).reason is StopReason.SVC
    assert m.read(DATA + 0x200, 512) == bytes(512)
    assert m.read(DATA + 0x1FF, 1) == b"\xff" and m.read(DATA + 0x400, 1) == b"\xff"


def test_dc_zva_on_a_readonly_page_faults_and_stores_nothing():
    m, s, cpu = machine([0xD50B7420, 0xD4000001])                    # dc zva, x0
    m.map(DATA + 0x10000, 0x1000, 1)
    m.write(DATA + 0x10000, b"\xff" * 0x1000)
    s.x[0] = DATA + 0x10400
    stop = cpu.run(10)
    assert stop.reason is StopReason.FAULT and stop.access == "write" and stop.address == DATA + 0x10400
    assert s.pc == CODE and stop.steps == 0
    assert m.read(DATA + 0x10000, 0x1000) == b"\xff" * 0x1000


def test_dc_zva_into_decoded_code_runs_the_new_code():
    # dc zva zeroes the block holding itself and the instructions after it: the next one
    # must be fetched again (a zero word: undefined), not run from the decode cache
    m, s, cpu = machine([0xD50B7420, 0xD2800541, 0xD4000001])       # dc zva, x0; mov x1, #42; svc
    s.x[0] = CODE
    stop = cpu.run(10)
    assert stop.reason is StopReason.UNDEFINED and s.pc == CODE + 4 and int(s.x[1]) == 0


def test_disassemble_lines():
    lines = disassemble(struct.pack("<3I", 0xD2800540, 0x91004020, 0), 0x1000)
    assert lines == [(0x1000, "mov x0, #0x2a"), (0x1004, "add x0, x1, #0x10"), (0x1008, ".inst 0x00000000")]


def test_32bit_move_wide():
    # mov w1, #1; movk w1, #0x2, lsl #16; mov w2, #-1 (movn); svc  -- a former decoder bug
    m, s, cpu = machine([0x52800021, 0x72A00041, 0x12800002, 0xD4000001])
    assert cpu.run(10).reason is StopReason.SVC
    assert int(s.x[1]) == 0x20001 and int(s.x[2]) == 0xFFFFFFFF


def test_the_loops_argument_types_are_numbas_own():
    """entries.numba_type skips numba's masked-array check; the types it gives the machine's
    arrays and tuples (and a read-only or strided array) are the ones numba's typeof gives."""
    import numpy as np
    from numba import typeof

    from ncpu.arm64.cpu import entries
    from ncpu.arm64.cpu.vregs import vr_views

    mem = Memory()
    cpu = Cpu(mem, CpuState())
    s = cpu.state
    values = (s.regs, vr_views(s.v), cpu._st, mem.arrays(), cpu._fp)
    frozen = np.arange(6.0)
    frozen.flags.writeable = False
    for value in (*values, frozen, np.arange(12, dtype=np.uint16)[::3], np.zeros((3, 4), np.int32).T, 7, None):
        assert entries.numba_type(value) == typeof(value), value
    assert cpu._types == tuple(typeof(v) for v in values[:4])

