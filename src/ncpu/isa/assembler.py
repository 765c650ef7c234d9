"""Text assembly to nCPU words, in two passes (sizes and labels, then encoding).

Syntax (case-insensitive, any spacing):
    label:                      ; a label alone
    loop: DEC R0                ; or before an instruction
    MOV R1, 0x10                ; decimal, 0x hex, 0b binary, negative immediates
    LOAD R2, [R1+4]             ; memory operands: [Rb], [Rb+imm], [Rb-imm]
    JNZ loop                    ; jump targets: a label or an address

`MOV Rd, imm` takes any 32-bit value: one MOVI word when it fits 21 signed
bits, otherwise MOVI (low half) + MOVT (high half). Every other immediate
must fit its field, or assembly fails with an error naming line and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ncpu.isa.encoding import Instruction, encode, field_range
from ncpu.isa.opcodes import (
    BY_MNEMONIC,
    FORMATS,
    IMMEDIATE_FORMS,
    JUMP_ALIASES,
    NUM_REGISTERS,
    SHIFT_IMMEDIATES,
    Op,
)


class AssemblerError(Exception):
    """Bad assembly text; `line` and `column` are 1-based."""

    def __init__(self, line: int, column: int, reason: str):
        super().__init__(f"{line}:{column}: {reason}")
        self.line = line
        self.column = column
        self.reason = reason


@dataclass
class Program:
    """Assembled code: the words, the labels, and each word's source line."""

    words: list[int]
    labels: dict[str, int] = field(default_factory=dict)
    lines: list[int] = field(default_factory=list)  # source line of each word

    def __len__(self) -> int:
        return len(self.words)


@dataclass
class _Token:
    text: str
    column: int  # 1-based


@dataclass
class _Statement:
    line: int
    mnemonic: _Token
    operands: list[_Token]
    address: int = 0


_LABEL = re.compile(r"\s*([A-Za-z_.][A-Za-z0-9_.]*)\s*:")
_MNEMONIC = re.compile(r"\s*([A-Za-z]+)")
_REGISTER = re.compile(r"[Rr]([0-9]+)$")
_MEMORY = re.compile(r"\[\s*([A-Za-z0-9]+)\s*(?:([+-])\s*([A-Za-z0-9_]+)\s*)?\]$")
_INTEGER = re.compile(r"[+-]?(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)$")
_MAX_PROGRAM = field_range("addr")[1] + 1


# The longest literal any field can use is a sign, 0b and 64 bits; a longer
# one is not a number here (and Python refuses to convert over 4,300 digits).
MAX_LITERAL_CHARS = 80


def parse_integer(text: str) -> int | None:
    """Decimal, 0x hex or 0b binary, optionally signed; None if not a number
    (or too long to be one this machine can use)."""
    if len(text) > MAX_LITERAL_CHARS or not _INTEGER.match(text):
        return None
    return int(text, 0) if not re.match(r"[+-]?0[0-9]", text) else int(text, 10)


def shorten(text: str, limit: int = 40) -> str:
    """Text for an error message: a long token is cut, with its length."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _split_operands(text: str, start_column: int) -> list[_Token]:
    """Split at top-level commas, keeping each operand's column."""
    tokens, depth, begin = [], 0, 0
    for index, char in enumerate(text + ","):
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == "," and depth <= 0:
            piece = text[begin:index]
            stripped = piece.strip()
            column = start_column + begin + (len(piece) - len(piece.lstrip()))
            tokens.append(_Token(stripped, column))
            begin = index + 1
    if len(tokens) == 1 and not tokens[0].text:
        return []
    return tokens


def _parse_lines(source: str) -> tuple[list[_Statement], dict[str, tuple[int, int, int]]]:
    """First pass: statements and labels (label -> (statement index, line, col))."""
    statements: list[_Statement] = []
    labels: dict[str, tuple[int, int, int]] = {}
    for line_number, raw in enumerate(source.splitlines(), start=1):
        code = raw.split(";", 1)[0]
        position = 0
        while match := _LABEL.match(code, position):
            name = match.group(1).upper()
            column = match.start(1) + 1
            if _REGISTER.match(name) or name in BY_MNEMONIC or name in JUMP_ALIASES:
                raise AssemblerError(line_number, column, f"'{match.group(1)}' is reserved and cannot be a label")
            if name in labels:
                raise AssemblerError(line_number, column, f"label '{match.group(1)}' is defined twice")
            labels[name] = (len(statements), line_number, column)
            position = match.end()
        rest = code[position:]
        if not rest.strip():
            continue
        match = _MNEMONIC.match(rest)
        column = position + len(rest) - len(rest.lstrip()) + 1
        if not match or (match.end() < len(rest) and not rest[match.end()].isspace()):
            raise AssemblerError(line_number, column, f"expected an instruction, found '{shorten(rest.strip())}'")
        mnemonic = _Token(match.group(1).upper(), column)
        operand_text = rest[match.end():]
        operands = _split_operands(operand_text, position + match.end() + 1)
        statements.append(_Statement(line_number, mnemonic, operands))
    return statements, labels


class _Encoder:
    """Second pass: turn one statement into instructions."""

    def __init__(self, labels: dict[str, int]):
        self.labels = labels

    def register(self, statement: _Statement, token: _Token) -> int:
        match = _REGISTER.match(token.text)
        if not match or int(match.group(1)) >= NUM_REGISTERS:
            raise AssemblerError(statement.line, token.column, f"expected a register R0-R{NUM_REGISTERS - 1}, found '{shorten(token.text)}'")
        return int(match.group(1))

    def immediate(self, statement: _Statement, token: _Token, field_name: str) -> int:
        value = parse_integer(token.text)
        if value is None:
            raise AssemblerError(statement.line, token.column, f"expected an integer, found '{shorten(token.text)}'")
        lo, hi = field_range(field_name)
        if not lo <= value <= hi:
            raise AssemblerError(statement.line, token.column, f"immediate {value} does not fit {field_name} ({lo}..{hi})")
        return value

    def target(self, statement: _Statement, token: _Token) -> int:
        value = parse_integer(token.text)
        if value is not None:
            lo, hi = field_range("addr")
            if not lo <= value <= hi:
                raise AssemblerError(statement.line, token.column, f"jump address {value} outside {lo}..{hi}")
            return value
        if token.text.upper() not in self.labels:
            raise AssemblerError(statement.line, token.column, f"undefined label '{token.text}'")
        return self.labels[token.text.upper()]

    def memory(self, statement: _Statement, token: _Token) -> tuple[int, int]:
        match = _MEMORY.match(token.text)
        if not match:
            raise AssemblerError(statement.line, token.column, f"expected a memory operand like [R1+4], found '{shorten(token.text)}'")
        base = self.register(statement, _Token(match.group(1), token.column + 1))
        offset = 0
        if match.group(2):
            offset = parse_integer(match.group(3))
            if offset is None:
                raise AssemblerError(statement.line, token.column, f"expected an integer offset, found '{shorten(match.group(3))}'")
            offset = -offset if match.group(2) == "-" else offset
            lo, hi = field_range("imm15")
            if not lo <= offset <= hi:
                raise AssemblerError(statement.line, token.column, f"offset {offset} does not fit imm15 ({lo}..{hi})")
        return base, offset

    def expect_count(self, statement: _Statement, count: int, usage: str) -> None:
        if len(statement.operands) != count:
            raise AssemblerError(statement.line, statement.mnemonic.column,
                                 f"{statement.mnemonic.text} takes {count} operand(s): {statement.mnemonic.text} {usage}".rstrip())

    def encode(self, statement: _Statement) -> list[Instruction]:
        name = JUMP_ALIASES.get(statement.mnemonic.text, statement.mnemonic.text)
        operands = statement.operands
        # MOV with an immediate: one or two words.
        if name in ("MOV", "MOVI") and len(operands) == 2 and not _REGISTER.match(operands[1].text):
            rd = self.register(statement, operands[0])
            value = parse_integer(operands[1].text)
            if value is None:
                raise AssemblerError(statement.line, operands[1].column, f"expected a register or an integer, found '{shorten(operands[1].text)}'")
            lo, hi = field_range("imm21")
            if lo <= value <= hi:
                return [Instruction(BY_MNEMONIC["MOVI"], rd=rd, imm=value)]
            if name == "MOVI" or not -(1 << 31) <= value < (1 << 32):
                limit = f"{lo}..{hi}" if name == "MOVI" else f"{-(1 << 31)}..{(1 << 32) - 1}"
                raise AssemblerError(statement.line, operands[1].column, f"immediate {value} does not fit {name} ({limit})")
            value &= 0xFFFFFFFF
            return [Instruction(BY_MNEMONIC["MOVI"], rd=rd, imm=value & 0xFFFF),
                    Instruction(BY_MNEMONIC["MOVT"], rd=rd, imm=value >> 16)]
        # Register-register ops written with an immediate last operand.
        if name in IMMEDIATE_FORMS and len(operands) == 3 and not _REGISTER.match(operands[2].text):
            op = BY_MNEMONIC[IMMEDIATE_FORMS[name]]
            rd = self.register(statement, operands[0])
            rs1 = self.register(statement, operands[1])
            value = self.immediate(statement, operands[2], "imm15") if name != "SUB" else self._negated(statement, operands[2])
            if op.mnemonic in SHIFT_IMMEDIATES and not 0 <= value <= 31:
                raise AssemblerError(statement.line, operands[2].column, f"shift amount {value} outside 0..31")
            return [Instruction(op, rd=rd, rs1=rs1, imm=value)]
        if name == "CMP" and len(operands) == 2 and not _REGISTER.match(operands[1].text):
            name = "CMPI"
        op = BY_MNEMONIC.get(name)
        if op is None:
            raise AssemblerError(statement.line, statement.mnemonic.column, f"unknown instruction '{statement.mnemonic.text}'")
        if op.mnemonic in SHIFT_IMMEDIATES:
            instruction = self._generic(statement, op)
            if not 0 <= instruction.imm <= 31:
                raise AssemblerError(statement.line, operands[2].column, f"shift amount {instruction.imm} outside 0..31")
            return [instruction]
        return [self._generic(statement, op)]

    def _negated(self, statement: _Statement, token: _Token) -> int:
        value = parse_integer(token.text)
        if value is None:
            raise AssemblerError(statement.line, token.column, f"expected an integer, found '{shorten(token.text)}'")
        lo, hi = field_range("imm15")
        if not lo <= -value <= hi:
            raise AssemblerError(statement.line, token.column, f"immediate {value} does not fit SUB ({-hi}..{-lo})")
        return -value

    def _generic(self, statement: _Statement, op: Op) -> Instruction:
        fmt = FORMATS[op.format]
        usage = _usage(op)
        if op.format in ("load", "store"):
            self.expect_count(statement, 2, usage)
            register = self.register(statement, statement.operands[0])
            base, offset = self.memory(statement, statement.operands[1])
            if op.format == "load":
                return Instruction(op, rd=register, rs1=base, imm=offset)
            return Instruction(op, rs2=register, rs1=base, imm=offset)
        self.expect_count(statement, len(fmt.fields), usage)
        values: dict[str, int] = {}
        for name, token in zip(fmt.fields, statement.operands):
            if name in ("rd", "rs1", "rs2"):
                values[name] = self.register(statement, token)
            elif name == "addr":
                values["imm"] = self.target(statement, token)
            else:
                values["imm"] = self.immediate(statement, token, name)
        return Instruction(op, **values)


def _usage(op: Op) -> str:
    names = {"rd": "Rd", "rs1": "Rs", "rs2": "Rt", "imm15": "imm", "imm21": "imm", "imm16": "imm16", "addr": "label"}
    syntax = FORMATS[op.format].syntax
    if op.format in ("load", "store"):
        return ("Rd, [Rb+imm]" if op.format == "load" else "Rs, [Rb+imm]")
    for key, shown in names.items():
        syntax = syntax.replace("{" + key + "}", shown)
    return syntax


def _size(statement: _Statement) -> int:
    """Words a statement assembles to (only MOV with a wide immediate takes two)."""
    name = statement.mnemonic.text
    if name == "MOV" and len(statement.operands) == 2:
        value = parse_integer(statement.operands[1].text)
        lo, hi = field_range("imm21")
        if value is not None and not lo <= value <= hi:
            return 2
    return 1


def assemble(source: str) -> Program:
    """Assemble text into a Program; raises AssemblerError on bad input."""
    statements, label_positions = _parse_lines(source)
    address = 0
    for statement in statements:
        statement.address = address
        address += _size(statement)
    if address > _MAX_PROGRAM:
        raise AssemblerError(statements[-1].line, 1, f"program of {address} words exceeds {_MAX_PROGRAM}")
    labels = {
        name: (statements[index].address if index < len(statements) else address)
        for name, (index, _, _) in label_positions.items()
    }
    encoder = _Encoder(labels)
    program = Program(words=[], labels=labels)
    for statement in statements:
        for instruction in encoder.encode(statement):
            program.words.append(encode(instruction))
            program.lines.append(statement.line)
    return program
