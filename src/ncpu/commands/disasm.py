"""`ncpu disasm`: binary back to assembly, for nCPU (default) or AArch64 (`--arch arm64`).

    ncpu disasm FILE.bin [--no-labels]        # nCPU words; re-assembles identically
    ncpu disasm --arch arm64 FILE [--addr A]  # an AArch64 ELF's code sections, or a raw file
"""

from __future__ import annotations

import argparse
import sys

from ncpu.cli import CommandError
from ncpu.commands._load import read_bytes, words_from_binary


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "disasm",
        help="disassemble an nCPU binary (or AArch64 code with --arch arm64)",
        description="Print FILE as assembly. nCPU (default): FILE.bin of 32-bit little-endian words from "
                    "`ncpu asm`. arm64: an AArch64 ELF file's executable sections, or a raw file of "
                    "instruction words, one line per word (address, word, text) from the table-driven "
                    "disassembler.",
    )
    parser.add_argument("file", metavar="FILE", help="the binary to disassemble")
    parser.add_argument("--arch", choices=("ncpu", "arm64"), default="ncpu", help="instruction set (default ncpu)")
    parser.add_argument("--no-labels", action="store_true", help="ncpu: print jump targets as addresses")
    parser.add_argument("--addr", type=lambda s: int(s, 0), default=None, metavar="A",
                        help="arm64: load address of a raw file (default 0); in an ELF file, start at A")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.arch == "ncpu":
        if args.addr is not None:
            raise CommandError("--addr applies to --arch arm64 only")
        from ncpu.isa import disassemble

        print(disassemble(words_from_binary(args.file), with_labels=not args.no_labels), end="")
        return 0
    if args.no_labels:
        raise CommandError("--no-labels applies to --arch ncpu only")
    _arm64(read_bytes(args.file), args.file, args.addr)
    return 0


def _arm64(data: bytes, name: str, start: int | None) -> None:
    from ncpu.arm64.cpu import disassemble
    from ncpu.arm64.linux import ElfError
    from ncpu.arm64.linux.elf import code_sections

    if data[:4] == b"\x7fELF":
        try:
            chunks = code_sections(data, name)
        except ElfError as error:
            raise CommandError(str(error)) from None
        if start is not None:
            chunks = [(section, start, code[start - addr:]) for section, addr, code in chunks
                      if addr <= start < addr + len(code)]
            if not chunks:
                raise CommandError(f"{name}: no executable section holds address {start:#x}")
    else:
        chunks = [("", start or 0, data)]
    out = sys.stdout
    for section, addr, code in chunks:
        if section:
            out.write(f"\n{section}:\n")
        code = code[: len(code) // 4 * 4]
        for at, text in disassemble(code, addr):
            word = int.from_bytes(code[at - addr:at - addr + 4], "little")
            out.write(f"{at:10x}:  {word:08x}  {text}\n")
