"""nsl: a small C-like language for the nCPU machine, and its compiler.

    source --lexer--> tokens --parser--> syntax tree --codegen--> assembly text

Read `codegen.py` first for how a program sits in the machine; the language
is defined in docs/nsl.md. `compile_source` is the whole pipeline.
"""

from __future__ import annotations

from ncpu.nsl.codegen import CodeGenerator, CompiledProgram
from ncpu.nsl.errors import NslError
from ncpu.nsl.parser import parse


def compile_source(source: str, name: str = "program.nsl") -> CompiledProgram:
    """nsl source -> nCPU assembly (with its memory layout); raises NslError."""
    return CodeGenerator(parse(source), source, name).generate()


__all__ = ["CompiledProgram", "NslError", "compile_source", "parse"]
