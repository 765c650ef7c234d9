"""The nCPU instruction set: one table of opcodes, an assembler and a disassembler.

No torch here: every other layer imports this one.
"""

from ncpu.isa.assembler import AssemblerError, Program, assemble
from ncpu.isa.disassembler import disassemble, format_instruction
from ncpu.isa.encoding import Instruction, decode, encode
from ncpu.isa.opcodes import OPCODES, Op

__all__ = [
    "AssemblerError",
    "Instruction",
    "OPCODES",
    "Op",
    "Program",
    "assemble",
    "decode",
    "disassemble",
    "encode",
    "format_instruction",
]
