"""`ncpu compile`: nsl source to nCPU assembly."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ncpu.commands._load import read_text


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "compile",
        help="compile an nsl program to nCPU assembly",
        description=("Compile FILE.nsl (the nsl language, docs/nsl.md) to nCPU assembly that "
                     "`ncpu run` and `ncpu asm` take. main's parameters are read from R1, R2, ... "
                     "at start (`ncpu run FILE.asm --reg R1=5`); print writes through the write "
                     "system call. Errors are printed as FILE:LINE:COL: reason, exit status 1."),
    )
    parser.add_argument("file", metavar="FILE.nsl", help="nsl source")
    parser.add_argument("-o", "--output", metavar="FILE.asm",
                        help="where to write the assembly (default: FILE.asm beside the source; '-': stdout)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ncpu.cli import CommandError
    from ncpu.nsl import NslError, compile_source

    source = read_text(args.file)
    try:
        compiled = compile_source(source, Path(args.file).name)
    except NslError as error:
        print(f"{args.file}:{error.line}:{error.column}: {error.reason}", file=sys.stderr)
        return 1
    if args.output == "-":
        sys.stdout.write(compiled.assembly)
        return 0
    output = Path(args.output) if args.output else Path(args.file).with_suffix(".asm")
    if output.resolve() == Path(args.file).resolve():
        raise CommandError(f"{output} would overwrite the source; name the output with -o FILE.asm")
    try:
        output.write_text(compiled.assembly)
    except OSError as error:
        raise CommandError(f"cannot write {output}: {error.strerror or error}") from None
    return 0
