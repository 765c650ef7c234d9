"""Compiled assembly as a list of lines the optimizer can rewrite, and what
is live after each instruction.

Straight-line instructions (`equivalence.STRAIGHT`) are decoded; control
flow (jumps, CALL, RET, SYS, HALT), labels, comments and the header are
kept as written. Liveness is the classic backward data-flow over registers
and flags, on the control-flow graph the labels give, and conservative
where the code leaves what it can see: after RET, SYS and HALT, and at the
end of the program, everything counts as live (the caller, the system-call
handler or whoever reads the final state may look at any of it). A CALL
continues into its callee, whose RETs are all-live, so what the callee does
not overwrite on every path stays live before the call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ncpu.isa import assemble
from ncpu.isa.disassembler import format_instruction
from ncpu.isa.encoding import Instruction, decode
from ncpu.isa.opcodes import FORMATS
from ncpu.nsl.equivalence import FLAGS, REGISTERS, STRAIGHT

EVERYTHING = frozenset(REGISTERS + FLAGS)
_LABEL = re.compile(r"\s*([A-Za-z_.][A-Za-z0-9_.]*)\s*:\s*(;.*)?$")
# Flags each conditional jump reads.
JUMP_FLAGS = {"JZ": "Z", "JNZ": "Z", "JS": "N", "JNS": "N", "JL": "NV", "JGE": "NV", "JG": "NZV", "JLE": "NZV",
              "JB": "C", "JAE": "C", "JA": "CZ", "JBE": "CZ"}
ALIASES = {"JE": "JZ", "JEQ": "JZ", "JNE": "JNZ", "JN": "JS", "JMI": "JS", "JPL": "JNS", "JLT": "JL", "JGT": "JG",
           "JLO": "JB", "JHS": "JAE", "JHI": "JA", "JLS": "JBE"}


@dataclass
class Line:
    text: str                          # the line as it will be written
    ins: Instruction | None = None     # a straight-line instruction
    control: str | None = None         # a control-flow mnemonic
    target: str | None = None          # its label operand
    label: str | None = None           # a label defined here


def reads(ins: Instruction) -> set[str]:
    fields = FORMATS[ins.op.format].fields
    used = {f"R{getattr(ins, f)}" for f in ("rs1", "rs2") if f in fields}
    if ins.op.mnemonic in ("MOVT", "INC", "DEC"):
        used.add(f"R{ins.rd}")
    return used


def writes(ins: Instruction) -> set[str]:
    if ins.op.mnemonic in ("CMP", "CMPI"):
        return set(FLAGS)
    if "rd" in FORMATS[ins.op.format].fields:
        return {f"R{ins.rd}", "N", "Z"}
    return set()


def render(ins: Instruction) -> str:
    return "        " + format_instruction(ins)


def parse(assembly: str) -> list[Line]:
    lines = []
    for text in assembly.splitlines():
        code = text.split(";", 1)[0].strip()
        label = _LABEL.match(text)
        if label:
            lines.append(Line(text, label=label.group(1)))
        elif not code:
            lines.append(Line(text))
        else:
            mnemonic = code.split()[0].upper()
            mnemonic = ALIASES.get(mnemonic, mnemonic)
            if mnemonic in JUMP_FLAGS or mnemonic in ("JMP", "CALL"):
                lines.append(Line(text, control=mnemonic, target=code.split()[1]))
            elif mnemonic in ("RET", "SYS", "HALT"):
                lines.append(Line(text, control=mnemonic))
            else:
                words = [decode(w) for w in assemble(code).words]
                if all(w.op.mnemonic in STRAIGHT for w in words) and len(words) == 1:
                    lines.append(Line(text, ins=words[0]))
                else:   # a wide MOV (two words): written out as its two instructions
                    lines += [Line(render(w), ins=w) for w in words]
    return lines


def write(lines: list[Line]) -> str:
    return "\n".join(line.text for line in lines) + "\n"


def instructions(lines: list[Line]) -> list[int]:
    """Indexes of the lines that are instructions."""
    return [i for i, line in enumerate(lines) if line.ins is not None or line.control is not None]


def liveness(lines: list[Line]) -> dict[int, frozenset[str]]:
    """Line index of each instruction -> registers and flags live after it."""
    order = instructions(lines)
    label_at, pending = {}, []
    position = {index: k for k, index in enumerate(order)}
    for i, line in enumerate(lines):
        if line.label is not None:
            pending.append(line.label)
        if i in position:
            for name in pending:
                label_at[name] = position[i]
            pending = []
    end = len(order)   # labels after the last instruction lead off the end
    for name in pending:
        label_at[name] = end

    def successors(k: int) -> list[int]:
        line = lines[order[k]]
        if line.control in ("RET", "SYS", "HALT"):
            return []
        if line.control in ("JMP", "CALL"):
            return [label_at.get(line.target, end)]
        if line.control is not None:
            return [label_at.get(line.target, end), k + 1]
        return [k + 1]

    live_in = [frozenset()] * end
    live_out = [frozenset()] * end
    changed = True
    while changed:
        changed = False
        for k in range(end - 1, -1, -1):
            line = lines[order[k]]
            if line.control in ("RET", "SYS", "HALT"):
                out = EVERYTHING
            else:
                out = frozenset().union(*(EVERYTHING if s >= end else live_in[s] for s in successors(k)))
            if line.ins is not None:
                new_in = (out - writes(line.ins)) | reads(line.ins)
            elif line.control in JUMP_FLAGS:
                new_in = out | set(JUMP_FLAGS[line.control])
            elif line.control in ("RET", "SYS", "HALT"):
                new_in = EVERYTHING
            else:
                new_in = out
            if new_in != live_in[k] or out != live_out[k]:
                live_in[k], live_out[k] = frozenset(new_in), out
                changed = True
    return {order[k]: live_out[k] for k in range(end)}


def runs(lines: list[Line]) -> list[list[int]]:
    """Maximal runs of straight-line instructions no label enters in the middle."""
    found, current = [], []
    for i, line in enumerate(lines):
        if line.ins is not None:
            current.append(i)
        elif line.control is not None or line.label is not None:
            if current:
                found.append(current)
            current = []
    if current:
        found.append(current)
    return found


def with_registers(ins: Instruction, rename: dict[int, int], destination_only: bool = False) -> Instruction:
    """The instruction with its register fields renamed (only the fields its format uses)."""
    fields = FORMATS[ins.op.format].fields
    changes = {}
    for name in ("rd", "rs1", "rs2"):
        if name not in fields:
            continue
        if destination_only and not (name == "rd" and ins.op.mnemonic not in ("MOVT", "INC", "DEC")):
            continue
        value = getattr(ins, name)
        if value in rename:
            changes[name] = rename[value]
    return replace(ins, **changes) if changes else ins
