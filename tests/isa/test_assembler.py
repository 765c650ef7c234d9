"""The assembler: syntax, immediates, labels, errors with line and column."""

import pytest

from ncpu.isa import AssemblerError, assemble, decode
from ncpu.machine.reference import run
from ncpu.machine.state import MachineState


def mnemonics(source: str) -> list[str]:
    return [decode(word).op.mnemonic for word in assemble(source).words]


def test_labels_alone_and_before_instructions_case_insensitive():
    program = assemble("Start:\n  mov r0, 3\nLOOP: dec R0\n  jns loop\n  JMP start2\nstart2: halt\n")
    assert program.labels == {"START": 0, "LOOP": 1, "START2": 4}
    assert mnemonics("x: y: NOP\n JMP X\n JMP y") == ["NOP", "JMP", "JMP"]


@pytest.mark.parametrize(
    "text, value",
    [("42", 42), ("-7", -7), ("0x1F", 31), ("-0x10", -16), ("0b1011", 11), ("+5", 5), ("007", 7)],
)
def test_immediate_spellings(text, value):
    state = run(assemble(f"MOV R3, {text}\nHALT").words, MachineState(), 10)
    assert state.registers[3] == value


@pytest.mark.parametrize("value", [0x7FFFFFFF, -(1 << 31), 0xFFFFFFFF, 0x12345678, 1 << 20, -(1 << 20) - 1])
def test_wide_mov_becomes_two_words_and_loads_the_value(value):
    program = assemble(f"MOV R1, {value}\nHALT")
    assert [decode(w).op.mnemonic for w in program.words[:2]] == ["MOVI", "MOVT"]
    state = run(program.words, MachineState(), 10)
    expected = value - (1 << 32) if value >= (1 << 31) else value
    assert state.registers[1] == expected
    assert state.n == (expected < 0) and state.z == (expected == 0)


def test_wide_mov_shifts_later_labels():
    program = assemble("MOV R0, 0x12345678\nend: HALT\nJMP end")
    assert program.labels["END"] == 2
    assert decode(program.words[3]).imm == 2


def test_immediate_forms_and_aliases():
    assert mnemonics("ADD R1, R2, 5\nSUB R1, R2, 5\nSHL R1, R1, 3\nCMP R0, -1\nAND R0, R0, 0xFF") == [
        "ADDI", "ADDI", "SHLI", "CMPI", "ANDI"]
    assert decode(assemble("SUB R1, R2, 5").words[0]).imm == -5
    assert mnemonics("x: JE x\nJNE x\nJLT x\nJGT x\nJHS x\nJLO x") == ["JZ", "JNZ", "JL", "JG", "JAE", "JB"]


def test_memory_operands():
    for text, base, offset in [("[R1]", 1, 0), ("[R2+4]", 2, 4), ("[ r3 - 8 ]", 3, -8), ("[R4+0x10]", 4, 16)]:
        ins = decode(assemble(f"LOAD R0, {text}").words[0])
        assert (ins.rs1, ins.imm) == (base, offset)
    ins = decode(assemble("STORE R5, [R6-1]").words[0])
    assert (ins.rs2, ins.rs1, ins.imm) == (5, 6, -1)


def test_comments_and_blank_lines_are_ignored():
    assert assemble("; only a comment\n\n   \nNOP ; trailing\n").words == assemble("NOP").words


@pytest.mark.parametrize(
    "source, line, column, fragment",
    [
        ("NOP\nFROB R1", 2, 1, "unknown instruction 'FROB'"),
        ("MOV R8, 1", 1, 5, "expected a register"),
        ("  ADD R1, R2", 1, 3, "takes 3 operand(s)"),
        ("JMP nowhere", 1, 5, "undefined label 'nowhere'"),
        ("a: NOP\nA: NOP", 2, 1, "defined twice"),
        ("ADD R1, R2, 20000", 1, 13, "does not fit imm15"),
        ("MOV R1, 0x100000000", 1, 9, "does not fit MOV"),
        ("SHL R1, R2, 32", 1, 13, "shift amount 32 outside 0..31"),
        ("LOAD R1, R2", 1, 10, "expected a memory operand"),
        ("MOV R1, banana", 1, 9, "expected a register or an integer"),
        ("HALT:", 1, 1, "reserved"),
        ("je: JMP je", 1, 1, "reserved"),
        ("NOP R1", 1, 1, "takes 0 operand(s)"),
        ("123", 1, 1, "expected an instruction"),
    ],
)
def test_errors_name_line_column_and_reason(source, line, column, fragment):
    with pytest.raises(AssemblerError) as info:
        assemble(source)
    assert (info.value.line, info.value.column) == (line, column)
    assert fragment in info.value.reason
