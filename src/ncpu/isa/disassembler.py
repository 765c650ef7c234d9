"""nCPU words back to assembly text that re-assembles to the same words."""

from __future__ import annotations

from ncpu.isa.encoding import Instruction, decode
from ncpu.isa.opcodes import FORMATS, IMMEDIATE_FORMS

# Immediate-form opcodes are printed with the mnemonic a person writes.
_WRITTEN_AS = {"MOVI": "MOV", "CMPI": "CMP"} | {
    immediate: register for register, immediate in IMMEDIATE_FORMS.items() if register != "SUB"
}


def format_instruction(instruction: Instruction, labels: dict[int, str] | None = None) -> str:
    """One instruction as assembly; jump targets use `labels` when given."""
    op = instruction.op
    mnemonic = _WRITTEN_AS.get(op.mnemonic, op.mnemonic)
    if not FORMATS[op.format].fields:
        return mnemonic
    values = {
        "rd": f"R{instruction.rd}",
        "rs1": f"R{instruction.rs1}",
        "rs2": f"R{instruction.rs2}",
        "imm15": instruction.imm,
        "imm21": instruction.imm,
        "imm16": instruction.imm,
        "addr": (labels or {}).get(instruction.imm, str(instruction.imm)),
    }
    return f"{mnemonic} {FORMATS[op.format].syntax.format(**values)}"


def disassemble(words: list[int], with_labels: bool = True) -> str:
    """A whole program as text. Raises DecodeError on an invalid word."""
    instructions = [decode(word) for word in words]
    labels: dict[int, str] = {}
    if with_labels:
        targets = sorted({i.imm for i in instructions if i.op.format == "jump" and i.imm <= len(words)})
        labels = {address: f"L{address}" for address in targets}
    lines = []
    for address, instruction in enumerate(instructions):
        if address in labels:
            lines.append(f"{labels[address]}:")
        lines.append(f"    {format_instruction(instruction, labels)}")
    if len(instructions) in labels:
        lines.append(f"{labels[len(instructions)]}:")
    return "\n".join(lines) + "\n"
