"""Edge cases of the semantics, checked in every engine by exact expectation."""

from __future__ import annotations

import pytest
from machine_helpers import ENGINE_NAMES, engine

from ncpu.isa import assemble
from ncpu.machine.state import MachineState

INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1

pytestmark = pytest.mark.parametrize("mode", ENGINE_NAMES)


def run(mode: str, source: str, state: MachineState | None = None, max_steps: int = 1000) -> MachineState:
    return engine(mode).run(assemble(source).words, state or MachineState(), max_steps)


def with_registers(*values: int, mem_size: int = 1024) -> MachineState:
    return MachineState(registers=list(values) + [0] * (8 - len(values)), memory=[0] * mem_size)


def test_division_edges(mode):
    s = run(mode, "DIV R2, R0, R1\nMOD R3, R0, R1\nDIV R4, R5, R6\nMOD R7, R5, R6\nHALT",
            with_registers(7, 0, 0, 0, 0, INT_MIN, -1))
    assert s.registers == [7, 0, 0, 7, INT_MIN, INT_MIN, -1, 0]


def test_division_truncates_toward_zero(mode):
    s = run(mode, "DIV R2, R0, R1\nMOD R3, R0, R1\nHALT", with_registers(-7, 2))
    assert s.registers[2:4] == [-3, -1]


@pytest.mark.parametrize("amount", [31, 32, 33, -1, -32, INT_MIN, 1 << 30])
def test_register_shift_amounts_are_unsigned(mode, amount):
    s = run(mode, "SHL R2, R0, R1\nSHR R3, R0, R1\nSAR R4, R0, R1\nSAR R5, R6, R1\nHALT",
            with_registers(-5, amount, 0, 0, 0, 0, 12345))
    if amount == 31:
        assert s.registers[2:6] == [INT_MIN, 1, -1, 0]
    else:
        assert s.registers[2:6] == [0, 0, -1, 0]


def test_arithmetic_wraps(mode):
    s = run(mode, "ADD R2, R0, R1\nMUL R3, R0, R0\nNEG R4, R5\nINC R0\nDEC R5\nHALT",
            with_registers(INT_MAX, 1, 0, 0, 0, INT_MIN))
    assert s.registers == [INT_MIN, 1, INT_MIN, 1, INT_MIN, INT_MAX, 0, 0]


def test_movt_builds_wide_constants(mode):
    s = run(mode, "MOV R0, 0x80001234\nMOV R1, -1\nMOVT R1, 0\nHALT")
    assert s.registers[:2] == [-0x7FFFEDCC, 0xFFFF]
    assert (s.n, s.z) == (False, False)


def test_register_writes_set_z_and_n_only(mode):
    start = MachineState(c=True, v=True)
    s = run(mode, "MOV R0, -3\nHALT", start)
    assert (s.n, s.z, s.c, s.v) == (True, False, True, True)
    s = run(mode, "MOV R0, 0\nHALT", start)
    assert (s.n, s.z, s.c, s.v) == (False, True, True, True)


@pytest.mark.parametrize("a, b, flags", [
    (1, 2, (True, False, False, False)),
    (2, 2, (False, True, True, False)),
    (INT_MIN, 1, (False, False, True, True)),
    (INT_MAX, -1, (True, False, False, True)),
    (-1, 1, (True, False, True, False)),
])
def test_compare_flags(mode, a, b, flags):
    s = run(mode, "CMP R0, R1\nHALT", with_registers(a, b))
    assert (s.n, s.z, s.c, s.v) == flags


def test_memory_addresses_wrap(mode):
    s = run(mode, "MOV R1, -1\nSTORE R0, [R1]\nSTORE R0, [R1+17]\nLOAD R2, [R1-16]\nHALT",
            with_registers(42, mem_size=16))
    assert s.memory[15] == 42 and s.memory[0] == 42 and s.registers[2] == 42


def test_stack_starts_at_top_and_wraps(mode):
    s = run(mode, "PUSH R0\nPUSH R1\nPOP R2\nPOP R3\nPOP R4\nHALT", with_registers(5, 6, mem_size=4))
    assert s.memory == [0, 0, 6, 5]
    assert s.registers[2:5] == [6, 5, 0]
    assert s.sp == 1


def test_call_and_ret_through_memory(mode):
    s = run(mode, "CALL f\nHALT\nf: MOV R0, 9\nRET", MachineState(memory=[0] * 8))
    assert (s.registers[0], s.pc, s.steps, s.halted, s.sp, s.memory[7]) == (9, 1, 4, True, 0, 1)


def test_ret_to_garbage_halts_without_a_step(mode):
    state = MachineState(memory=[-5, 0, 0, 0])
    s = run(mode, "RET\nHALT", state)
    assert (s.pc, s.steps, s.halted, s.sp) == (-5, 1, True, 1)


def test_empty_program_halts_immediately(mode):
    s = engine(mode).run([], MachineState(steps=3), 10)
    assert (s.halted, s.steps, s.pc) == (True, 3, 0)


def test_falling_off_the_end(mode):
    s = run(mode, "NOP\nNOP\nNOP")
    assert (s.halted, s.steps, s.pc) == (True, 3, 3)


def test_falling_off_with_exact_budget_still_halts(mode):
    s = run(mode, "NOP", max_steps=1)
    assert (s.halted, s.steps, s.pc) == (True, 1, 1)


def test_halt_counts_a_step_and_keeps_pc(mode):
    s = run(mode, "NOP\nHALT\nNOP")
    assert (s.halted, s.steps, s.pc) == (True, 2, 1)


@pytest.mark.parametrize("budget", [0, 1, 37, 1000])
def test_budget_exhaustion(mode, budget):
    s = run(mode, "loop: INC R0\nJMP loop", MachineState(steps=5), max_steps=budget)
    assert (s.halted, s.steps, s.pc, s.registers[0]) == (False, 5 + budget, budget % 2, (budget + 1) // 2)


def test_budget_one_short_of_halt(mode):
    s = run(mode, "NOP\nHALT", max_steps=1)
    assert (s.halted, s.steps, s.pc) == (False, 1, 1)
    s = run(mode, "NOP\nHALT", max_steps=2)
    assert (s.halted, s.steps, s.pc) == (True, 2, 1)


def test_halted_machine_does_not_run(mode):
    s = run(mode, "INC R0\nHALT", MachineState(halted=True, pc=0))
    assert (s.halted, s.steps, s.registers[0]) == (True, 0, 0)


def test_pc_outside_at_start_halts(mode):
    s = run(mode, "INC R0", MachineState(pc=-1), max_steps=0)
    assert (s.halted, s.steps, s.pc) == (True, 0, -1)


def test_input_state_is_not_modified(mode):
    state = with_registers(1, 2)
    before = state.copy()
    run(mode, "ADD R0, R0, R1\nPUSH R0\nHALT", state)
    assert state == before


def test_huge_budget_means_unlimited(mode):
    s = run(mode, "MOV R0, 3\nloop: DEC R0\nJNZ loop\nHALT", max_steps=1 << 64)
    assert (s.halted, s.steps, s.registers[0]) == (True, 8, 0)


def test_negative_budget_runs_nothing(mode):
    s = run(mode, "INC R0\nHALT", MachineState(steps=4), max_steps=-3)
    assert (s.halted, s.steps, s.registers[0]) == (False, 4, 0)
