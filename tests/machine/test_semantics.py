"""The reference semantics checked against independent formulations."""

from fractions import Fraction
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from ncpu.isa import assemble
from ncpu.isa import semantics as sem
from ncpu.machine.reference import run
from ncpu.machine.state import MachineState

INT32 = st.one_of(st.integers(-(1 << 31), (1 << 31) - 1),
                  st.sampled_from([0, 1, -1, 2, -2, sem.INT_MIN, (1 << 31) - 1, 31, 32, 33, 64, -32]))


@given(INT32, INT32)
@settings(max_examples=3000, deadline=None)
def test_division_truncates_and_remainder_keeps_the_dividend_sign(a, b):
    q, r = sem.divide(a, b), sem.modulo(a, b)
    if b == 0:
        assert (q, r) == (0, a)
        return
    assert q == sem.wrap(math.trunc(Fraction(a, b)))
    assert sem.wrap(q * b + r) == a
    assert r == 0 or (r < 0) == (a < 0)
    assert abs(r) < abs(b) or (a, b) == (sem.INT_MIN, -1)


@given(INT32, INT32)
@settings(max_examples=3000, deadline=None)
def test_compare_flags_match_a_64_bit_subtraction(a, b):
    n, z, c, v = sem.compare_flags(a, b)
    exact = a - b
    assert z == (exact % (1 << 32) == 0)
    assert n == bool((exact >> 31) & 1)
    assert c == ((a % (1 << 32)) >= (b % (1 << 32)))
    assert v == (not -(1 << 31) <= exact < (1 << 31))


@given(INT32, INT32)
@settings(max_examples=3000, deadline=None)
def test_shifts_read_the_amount_as_unsigned(a, amount):
    u = amount % (1 << 32)
    bits = a % (1 << 32)
    assert sem.shift_left(a, amount) == sem.wrap((bits << u) if u < 32 else 0)
    assert sem.shift_right_logical(a, amount) == sem.wrap(bits >> u if u < 32 else 0)
    assert sem.shift_right_arithmetic(a, amount) == (a >> min(u, 63))


def test_edge_cases_through_the_machine():
    source = """
        MOV R0, 0x80000000
        MOV R1, -1
        DIV R2, R0, R1      ; INT_MIN / -1 wraps to INT_MIN
        MOD R3, R0, R1      ; 0
        MOV R4, 0
        DIV R5, R1, R4      ; x / 0 = 0
        MOD R6, R1, R4      ; x % 0 = x
        HALT
    """
    state = run(assemble(source).words, MachineState(), 100)
    assert state.registers[2:7] == [sem.INT_MIN, 0, 0, 0, -1]
    assert state.halted and state.steps == 9


def test_memory_addresses_and_the_stack_wrap():
    source = """
        MOV R0, 7
        MOV R1, -1
        STORE R0, [R1+0]    ; address -1 wraps to the top word
        PUSH R0             ; sp 0 -> mem_size-1: the same word
        LOAD R2, [R1-16]    ; (-17) mod 16 = 15
        POP R3
        HALT
    """
    state = run(assemble(source).words, MachineState(memory=[0] * 16), 100)
    assert state.memory[15] == 7 and state.registers[2] == 7 and state.registers[3] == 7
    assert state.sp == 0


def test_call_and_ret_use_the_memory_stack():
    source = "CALL f\nHALT\nf: MOV R0, 5\nRET"
    state = run(assemble(source).words, MachineState(), 100)
    assert state.registers[0] == 5 and state.halted and state.pc == 1 and state.steps == 4
    assert state.memory[-1] == 1  # the return address pushed by CALL


def test_budget_and_falling_off_the_end():
    looping = assemble("loop: INC R0\nJMP loop").words
    state = run(looping, MachineState(), 11)
    assert (state.halted, state.steps, state.registers[0]) == (False, 11, 6)
    state = run(assemble("INC R0\nINC R0").words, MachineState(), 2)
    assert state.halted and state.steps == 2 and state.pc == 2
    assert run([], MachineState(), 5).halted


def test_mov_sets_flags_for_the_original_dec_jns_idiom():
    source = "MOV R0, 3\nloop: INC R1\nDEC R0\nJNS loop\nHALT"
    state = run(assemble(source).words, MachineState(), 100)
    assert state.registers[:2] == [-1, 4] and state.n and not state.z
