"""`ncpu disasm`: binary words back to assembly that re-assembles identically."""

from __future__ import annotations

import argparse

from ncpu.commands._load import words_from_binary
from ncpu.isa import disassemble


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "disasm",
        help="disassemble an nCPU binary",
        description="Print FILE.bin (32-bit little-endian words) as nCPU assembly.",
    )
    parser.add_argument("file", metavar="FILE.bin", help="binary produced by `ncpu asm`")
    parser.add_argument("--no-labels", action="store_true", help="print jump targets as addresses")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print(disassemble(words_from_binary(args.file), with_labels=not args.no_labels), end="")
    return 0
