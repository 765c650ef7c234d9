"""The loop's debug hooks: the trace equals single-stepping, breakpoints stop before the instruction."""
import struct

import numpy as np

from ncpu.arm64.cpu import Cpu, CpuState, Memory, StopReason
from ncpu.arm64.cpu.hooks import COL_NZCV, COL_PC, COL_WORD, COL_X0, Hooks
from ncpu.arm64.cpu.state import ICOUNT

CODE = 0x10000
DATA = 0x20000
PROGRAM = [
    0xD2800000,  # mov  x0, #0
    0xD2800022,  # mov  x2, #1
    0xD2A00045,  # movz x5, #0x2, lsl #16      (DATA)
    # loop:     (CODE + 12)
    0x91000C00,  # add  x0, x0, #3
    0xF80084A0,  # str  x0, [x5], #8           (a fast-path store)
    0xCB020000,  # sub  x0, x0, x2
    0x9AC20806,  # udiv x6, x0, x2             (an undispatched row: the outer hook)
    0xF1000421,  # subs x1, x1, #1
    0x54FFFF61,  # b.ne loop
    0xD4000001,  # svc  #0
]


def machine(rounds=50):
    mem = Memory()
    mem.map(CODE, 0x1000, 5)
    mem.map(DATA, 0x1000, 3)
    mem.write(CODE, b"".join(struct.pack("<I", w) for w in PROGRAM))
    s = CpuState()
    s.pc = CODE
    s.x[1] = rounds
    return Cpu(mem, s)


def stepped_states(rounds=50):
    cpu = machine(rounds)
    states = []
    while True:
        s = cpu.state
        states.append((s.pc, int(cpu.instructions), s.regs[:32].copy(), int(s.regs[33])))
        if cpu.run(1).reason is StopReason.SVC:
            return states


def test_trace_rows_equal_single_stepping_across_ring_drains():
    rows = []
    cpu = machine()
    cpu.hooks = Hooks(trace=True, regs=True, ring=7, on_trace=lambda r: rows.append(r.copy()))
    stop = cpu.run(10_000)
    cpu.hooks.flush()
    assert stop.reason is StopReason.SVC
    rows = np.vstack(rows)
    expected = stepped_states()
    assert len(rows) == len(expected) == 3 + 50 * 6 + 1
    for row, (pc, count, regs, nzcv) in zip(rows, expected):
        assert row[COL_PC] == pc and row[2] == count
        assert (row[COL_X0:COL_X0 + 32] == regs).all() and row[COL_NZCV] == nzcv
        assert row[COL_WORD] == PROGRAM[(pc - CODE) // 4]


def test_trace_without_registers_keeps_pcs():
    rows = []
    cpu = machine(5)
    cpu.hooks = Hooks(trace=True, on_trace=lambda r: rows.append(r.copy()))
    cpu.run(1000)
    cpu.hooks.flush()
    pcs = np.vstack(rows)[:, COL_PC]
    assert pcs.tolist() == [s[0] for s in stepped_states(5)] and len(pcs) == 3 + 5 * 6 + 1
    assert (np.vstack(rows)[:, COL_X0:] == 0).all()


def test_breakpoint_stops_before_the_instruction_and_resumes_past_it():
    cpu = machine(3)
    seen = []
    cpu.hooks = Hooks(breakpoints=[CODE + 24])            # the udiv
    for _ in range(3):
        stop = cpu.run(1000)
        assert stop.reason is StopReason.HOOK and cpu.state.pc == CODE + 24
        seen.append((int(cpu.state.x[0]), cpu.instructions))
    assert cpu.run(1000).reason is StopReason.SVC
    assert seen == [(2, 6), (4, 12), (6, 18)]               # x0 after add and sub; udiv not yet run


def test_breakpoint_callback_can_go_on_and_change_the_set():
    cpu = machine(4)
    hits = []

    def on_break(c, pc):
        hits.append(pc)
        if len(hits) == 2:
            c.hooks.set_breakpoints([CODE + 12])
        return False
    cpu.hooks = Hooks(breakpoints=[CODE + 16], on_break=on_break)
    assert cpu.run(1000).reason is StopReason.SVC
    assert hits == [CODE + 16, CODE + 16, CODE + 12, CODE + 12]
    assert int(cpu.state.x[0]) == 8


def test_no_hooks_gives_the_same_run():
    plain, hooked = machine(), machine()
    hooked.hooks = Hooks(trace=True, regs=True, ring=64, on_trace=lambda r: None, breakpoints=[CODE + 0x800])
    a, b = plain.run(10_000), hooked.run(10_000)
    arch = np.arange(len(plain.state.regs)) != ICOUNT         # ICOUNT: the count at the last loop entry
    assert a.steps == b.steps and (plain.state.regs[arch] == hooked.state.regs[arch]).all()
    assert plain.mem.read(DATA, 400) == hooked.mem.read(DATA, 400)
