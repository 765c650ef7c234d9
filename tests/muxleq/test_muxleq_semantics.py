"""The reference MUXLEQ machine, instruction by instruction, against the
definition in docs/muxleq.md (values worked out by hand)."""

from __future__ import annotations

import numpy as np
import pytest

from ncpu.muxleq import reference
from ncpu.muxleq.state import DecFormatError, MuxleqState, format_dec, parse_dec


def machine(cells, **streams) -> MuxleqState:
    return MuxleqState.load(cells, **streams)


def test_subleq_positive_result_falls_through():
    s = reference.run(machine([3, 4, 100, 5, 7]), 1)  # m[4] = 7 - 5 = 2 > 0
    assert (s.pc, s.steps, int(s.memory[4])) == (3, 1, 2)


@pytest.mark.parametrize("a_value, b_value, expected", [(7, 7, 0), (8, 7, 0xFFFF), (1, 0x8000, 0x7FFF)])
def test_subleq_jumps_on_zero_or_negative(a_value, b_value, expected):
    s = reference.run(machine([3, 4, 99, a_value, b_value]), 1)
    assert int(s.memory[4]) == expected
    jumped = expected == 0 or expected >= 0x8000
    assert s.pc == (99 if jumped else 3)


def test_subleq_wraps_and_0x8000_counts_as_negative():
    s = reference.run(machine([3, 4, 99, 1, 0]), 1)  # 0 - 1 = 0xFFFF: negative
    assert (int(s.memory[4]), s.pc) == (0xFFFF, 99)


def test_mux_takes_b_bits_where_select_is_one():
    cells = [3, 4, 0x8000 | 5, 0b1100, 0b1010, 0b0110]
    s = reference.run(machine(cells), 1)
    assert int(s.memory[4]) == (0b1100 & ~0b0110 | 0b1010 & 0b0110) & 0xFFFF == 0b1010
    assert s.pc == 3  # MUX never jumps


def test_c_0xffff_is_subleq_not_mux():
    s = reference.run(machine([3, 4, 0xFFFF, 1, 1]), 5)  # 1 - 1 = 0: jump to 0xFFFF = halt
    assert s.halted and s.pc == 0xFFFF and s.steps == 1


def test_input_output_and_end_of_input():
    # read a byte into m[100]; write m[100]; read at end of input into m[101]; halt
    cells = [0xFFFF, 100, 0, 100, 0xFFFF, 0, 0xFFFF, 101, 0, 102, 102, 0xFFFF]
    s = reference.run(machine(cells, input=b"\xfe"), 10)
    assert s.output == b"\xfe" and int(s.memory[101]) == 0xFFFF
    assert s.halted and s.steps == 4 and s.input == b""


def test_output_writes_the_low_byte():
    s = reference.run(machine([3, 0xFFFF, 0xFFFF, 0x1241]), 1)
    assert s.output == b"\x41"


def test_a_read_without_input_waits_and_resumes():
    cells = [0xFFFF, 100, 0, 100, 0xFFFF, 0, 102, 102, 0xFFFF]
    s = reference.run(machine(cells, end_of_input=False), 10)
    assert s.waiting_for_input and s.steps == 0 and not s.halted
    s.input = b"x"
    s = reference.run(s, 10)
    assert s.output == b"x" and s.halted and s.steps == 3


def test_halts_at_0x8000_and_counts_only_executed_steps():
    cells = np.zeros(0x8000, np.int64)
    cells[:3] = [9, 9, 0x7FFD]              # 0 - 0 = 0: jump to the last instruction
    cells[10] = 5
    cells[0x7FFD:0x7FFF] = [9, 10]          # 5 - 0 > 0: fall through to pc 0x8000
    s = reference.run(machine(cells), 10)
    assert s.halted and s.steps == 2 and s.pc == 0x8000
    assert reference.run(s, 10).steps == 2  # a halted machine executes nothing


def test_budget():
    s = reference.run(machine([0, 0, 0]), 7)  # an endless loop
    assert s.steps == 7 and not s.halted


def test_dec_format_round_trip_and_errors():
    memory = parse_dec("1 -1\n 65535 0x" .replace("0x", "7"))
    assert list(memory[:4]) == [1, 0xFFFF, 0xFFFF, 7]
    text = format_dec([1, 0xFFFF, 40000])
    assert text.split() == ["1", "-1", "-25536"]
    assert (parse_dec(text)[:3] == np.array([1, 0xFFFF, 40000])).all()
    with pytest.raises(DecFormatError, match="cell 1"):
        parse_dec("3 x4")
    with pytest.raises(DecFormatError, match="16 bits"):
        parse_dec("70000")
