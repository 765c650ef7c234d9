"""The SUBLEQ/MUXLEQ macro assembler: layout, expressions, macros, errors."""

from __future__ import annotations

import pytest

from ncpu.muxleq import reference
from ncpu.muxleq.assembler import MuxleqAsmError, assemble
from ncpu.muxleq.state import MuxleqState


def cells(text: str) -> list[int]:
    return assemble(text, prelude=False).cells


def test_instructions_and_the_default_jump_target():
    assert cells("subleq 6 7 0\nsubleq 6, 7") == [6, 7, 0, 6, 7, 6]
    assert cells("in 9\nout 9") == [0xFFFF, 9, 3, 9, 0xFFFF, 6]
    assert cells("mux 1 2 3") == [1, 2, 0x8003]


def test_labels_data_sections_and_expressions():
    source = """
    start: subleq x y end+0   ; a comment
    .data
    x: .word 'A' -2 0x10
    y: .string "a;\\n"
    .text
    end: subleq x+1 x-start
    """
    out = cells(source)
    # text first (start at 0, end at 3), then data (x at 6, y at 9)
    assert out == [6, 9, 3, 7, 6, 6, 65, 0xFFFE, 16, 97, 59, 10]


def test_constant_pool_cells_are_shared():
    out = cells("subleq #5 x\nsubleq #5 x\n.data\nx: .word 0")
    assert out[0] == out[3] == 7 and out[7] == 5


def test_macros_substitute_parameters_and_localise_labels():
    source = """
    .macro twice a
    @here: subleq a a @here
    @there: subleq a a @there
    .endm
    twice 100
    twice 200
    """
    assert cells(source) == [100, 100, 0, 100, 100, 3, 200, 200, 6, 200, 200, 9]


def test_prelude_macros_run_as_documented():
    source = """
      mov #-7 x
      jneg x negative
      halt
    negative:
      add x y
      neg y
      out y
      halt
    .data
    x: .word 0
    y: .word 65
    """
    image = assemble(source).cells
    state = reference.run(MuxleqState.load(image), 10_000)
    assert state.halted and state.output == bytes([7 - 65 & 0xFF])


@pytest.mark.parametrize("source, message", [
    ("subleq 1", ":1: subleq takes a b"),
    ("foo 1 2", ":1: unknown instruction or macro 'foo'"),
    ("\nsubleq nowhere 1 2", ":2: undefined label 'nowhere'"),
    ("x: subleq 1 1\nx: subleq 1 1", ":2: label x defined twice"),
    (".macro m a\nsubleq a a", "has no .endm"),
    ("mux 1 2 40000", "mux select address 40000"),
])
def test_errors_name_the_line(source, message):
    with pytest.raises(MuxleqAsmError, match=message.replace("(", r"\(")):
        assemble(source, "prog.masm", prelude=False)


@pytest.mark.parametrize("x, y", [(0x0F0F, 0x00FF), (0xFFFF, 0x1234), (0, 0xFFFF), (0x8001, 0x7FFE)])
def test_prelude_and_or_are_single_mux_instructions(x, y):
    source = f"""
      and x y_and
      or x y_or
      halt
    .data
    x: .word {x}
    y_and: .word {y}
    y_or: .word {y}
    """
    out = assemble(source)
    state = reference.run(MuxleqState.load(out.cells), 100)
    assert state.halted and state.steps == 3
    assert int(state.memory[out.symbols["y_and"]]) == x & y
    assert int(state.memory[out.symbols["y_or"]]) == x | y
