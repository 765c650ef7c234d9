"""The one table of nCPU instructions.

Every instruction is a 32-bit word: [31:24] opcode, then fields laid out by
its *format*. The assembler, the disassembler, the encoder/decoder and every
engine's dispatch are derived from this table; adding an instruction means
adding a row here and its semantics in `ncpu.isa.semantics`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Format:
    """How an instruction's operands sit in the word and in assembly text.

    `fields` lists the encoded fields in assembly order. Field kinds:
      rd   -> bits [23:21]   rs1 -> bits [20:18]   rs2 -> bits [17:15]
      imm15 -> bits [14:0], signed         imm21 -> bits [20:0], signed
      imm16 -> bits [15:0], unsigned       addr  -> bits [20:0], unsigned
    `syntax` is how the operands are written, with field names as slots.
    """

    name: str
    fields: tuple[str, ...]
    syntax: str


FORMATS = {
    f.name: f
    for f in [
        Format("none", (), ""),
        Format("rrr", ("rd", "rs1", "rs2"), "{rd}, {rs1}, {rs2}"),
        Format("rri", ("rd", "rs1", "imm15"), "{rd}, {rs1}, {imm15}"),
        Format("rr", ("rd", "rs1"), "{rd}, {rs1}"),
        Format("r", ("rd",), "{rd}"),
        Format("s", ("rs1",), "{rs1}"),
        Format("ss", ("rs1", "rs2"), "{rs1}, {rs2}"),
        Format("si", ("rs1", "imm15"), "{rs1}, {imm15}"),
        Format("load", ("rd", "rs1", "imm15"), "{rd}, [{rs1}{imm15:+d}]"),
        Format("store", ("rs2", "rs1", "imm15"), "{rs2}, [{rs1}{imm15:+d}]"),
        Format("ri21", ("rd", "imm21"), "{rd}, {imm21}"),
        Format("ri16", ("rd", "imm16"), "{rd}, {imm16}"),
        Format("jump", ("addr",), "{addr}"),
    ]
}

# Field widths and whether they are signed: (low bit, width, signed).
FIELD_BITS = {
    "rd": (21, 3, False),
    "rs1": (18, 3, False),
    "rs2": (15, 3, False),
    "imm15": (0, 15, True),
    "imm21": (0, 21, True),
    "imm16": (0, 16, False),
    "addr": (0, 21, False),
}


@dataclass(frozen=True)
class Op:
    """One row of the instruction table."""

    mnemonic: str  # canonical name printed by the disassembler
    code: int  # the opcode byte, bits [31:24]
    format: str  # key into FORMATS
    summary: str  # one line for docs/isa.md and `--help`


# fmt: off
OPCODES: tuple[Op, ...] = (
    Op("NOP",   0x00, "none", "do nothing"),
    Op("HALT",  0x01, "none", "stop the machine; pc stays on the HALT"),
    Op("MOV",   0x02, "rr",   "rd = rs1"),
    Op("MOVI",  0x03, "ri21", "rd = imm21 (sign-extended); assembly `MOV Rd, imm`"),
    Op("MOVT",  0x04, "ri16", "rd = (imm16 << 16) | (rd & 0xFFFF)"),
    Op("ADD",   0x10, "rrr",  "rd = rs1 + rs2 (wrapping)"),
    Op("SUB",   0x11, "rrr",  "rd = rs1 - rs2 (wrapping)"),
    Op("MUL",   0x12, "rrr",  "rd = low 32 bits of rs1 * rs2"),
    Op("DIV",   0x13, "rrr",  "rd = rs1 / rs2, signed, truncating; x/0 = 0; INT_MIN/-1 = INT_MIN"),
    Op("MOD",   0x14, "rrr",  "rd = rs1 - (rs1/rs2)*rs2 (sign of rs1); x%0 = x; INT_MIN%-1 = 0"),
    Op("AND",   0x15, "rrr",  "rd = rs1 & rs2"),
    Op("OR",    0x16, "rrr",  "rd = rs1 | rs2"),
    Op("XOR",   0x17, "rrr",  "rd = rs1 ^ rs2"),
    Op("SHL",   0x18, "rrr",  "rd = rs1 << rs2; amounts >= 32 (unsigned) give 0"),
    Op("SHR",   0x19, "rrr",  "rd = rs1 >> rs2, logical; amounts >= 32 (unsigned) give 0"),
    Op("SAR",   0x1A, "rrr",  "rd = rs1 >> rs2, arithmetic; amounts >= 32 (unsigned) give 0 or -1"),
    Op("ADDI",  0x20, "rri",  "rd = rs1 + imm15; assembly `ADD/SUB Rd, Rs, imm`"),
    Op("ANDI",  0x25, "rri",  "rd = rs1 & imm15 (sign-extended); assembly `AND Rd, Rs, imm`"),
    Op("ORI",   0x26, "rri",  "rd = rs1 | imm15 (sign-extended); assembly `OR Rd, Rs, imm`"),
    Op("XORI",  0x27, "rri",  "rd = rs1 ^ imm15 (sign-extended); assembly `XOR Rd, Rs, imm`"),
    Op("SHLI",  0x28, "rri",  "rd = rs1 << imm (0..31); assembly `SHL Rd, Rs, imm`"),
    Op("SHRI",  0x29, "rri",  "rd = rs1 >> imm (0..31), logical; assembly `SHR Rd, Rs, imm`"),
    Op("SARI",  0x2A, "rri",  "rd = rs1 >> imm (0..31), arithmetic; assembly `SAR Rd, Rs, imm`"),
    Op("NOT",   0x30, "rr",   "rd = ~rs1"),
    Op("NEG",   0x31, "rr",   "rd = -rs1 (wrapping)"),
    Op("INC",   0x32, "r",    "rd = rd + 1"),
    Op("DEC",   0x33, "r",    "rd = rd - 1"),
    Op("CMP",   0x38, "ss",   "set N Z C V from rs1 - rs2 (as ARM SUBS); no register written"),
    Op("CMPI",  0x39, "si",   "set N Z C V from rs1 - imm15; assembly `CMP Rs, imm`"),
    Op("LOAD",  0x40, "load", "rd = mem[(rs1 + imm15) mod mem_size]"),
    Op("STORE", 0x41, "store", "mem[(rs1 + imm15) mod mem_size] = rs2"),
    Op("PUSH",  0x42, "s",    "sp = (sp - 1) mod mem_size; mem[sp] = rs1"),
    Op("POP",   0x43, "r",    "rd = mem[sp]; sp = (sp + 1) mod mem_size"),
    Op("JMP",   0x50, "jump", "pc = addr"),
    Op("JZ",    0x51, "jump", "if Z: pc = addr (alias JE, JEQ)"),
    Op("JNZ",   0x52, "jump", "if not Z: pc = addr (alias JNE)"),
    Op("JS",    0x53, "jump", "if N: pc = addr (alias JN, JMI)"),
    Op("JNS",   0x54, "jump", "if not N: pc = addr (alias JPL)"),
    Op("JL",    0x55, "jump", "signed less: if N != V (alias JLT)"),
    Op("JGE",   0x56, "jump", "signed greater or equal: if N == V"),
    Op("JG",    0x57, "jump", "signed greater: if not Z and N == V (alias JGT)"),
    Op("JLE",   0x58, "jump", "signed less or equal: if Z or N != V"),
    Op("JB",    0x59, "jump", "unsigned below: if not C (alias JLO)"),
    Op("JAE",   0x5A, "jump", "unsigned above or equal: if C (alias JHS)"),
    Op("JA",    0x5B, "jump", "unsigned above: if C and not Z (alias JHI)"),
    Op("JBE",   0x5C, "jump", "unsigned below or equal: if not C or Z (alias JLS)"),
    Op("CALL",  0x60, "jump", "sp = (sp - 1) mod mem_size; mem[sp] = pc + 1; pc = addr"),
    Op("RET",   0x61, "none", "pc = mem[sp]; sp = (sp + 1) mod mem_size"),
    Op("SYS",   0x70, "none", "system call R0 with arguments R1..R3, result in R0 (sets Z N); traps to the runner or OS"),
)
# fmt: on

BY_MNEMONIC: dict[str, Op] = {op.mnemonic: op for op in OPCODES}
BY_CODE: dict[int, Op] = {op.code: op for op in OPCODES}

# Assembly spellings that mean a canonical conditional jump.
JUMP_ALIASES = {
    "JE": "JZ", "JEQ": "JZ", "JNE": "JNZ", "JN": "JS", "JMI": "JS", "JPL": "JNS",
    "JLT": "JL", "JGT": "JG", "JLO": "JB", "JHS": "JAE", "JHI": "JA", "JLS": "JBE",
}

# Register-register mnemonics whose assembly also accepts an immediate third
# operand, and the immediate-form opcode it then becomes.
IMMEDIATE_FORMS = {
    "ADD": "ADDI", "SUB": "ADDI", "AND": "ANDI", "OR": "ORI", "XOR": "XORI",
    "SHL": "SHLI", "SHR": "SHRI", "SAR": "SARI",
}
SHIFT_IMMEDIATES = {"SHLI", "SHRI", "SARI"}

NUM_REGISTERS = 8
WORD_MASK = 0xFFFFFFFF
