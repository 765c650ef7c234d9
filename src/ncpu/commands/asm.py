"""`ncpu asm`: assemble a text file to little-endian 32-bit words."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ncpu.cli import CommandError
from ncpu.commands._load import assemble_file, read_text, words_to_binary


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "asm",
        help="assemble an nCPU program to binary",
        description="Assemble FILE.asm into 32-bit little-endian instruction words.",
    )
    parser.add_argument("file", metavar="FILE.asm", help="assembly source")
    parser.add_argument("-o", "--output", metavar="FILE.bin",
                        help="where to write the words (default: FILE.bin beside the source; '-' prints hex words)")
    parser.add_argument("--neural", action="store_true",
                        help="assemble through the neural assembler (neurOS's tokenizer and code generator "
                             "networks), checked word by word against the classical one; the overrides are "
                             "reported (docs/neuros.md)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    program = assemble_file(args.file)  # errors as file:line:col
    overrides = None
    if args.neural:
        from ncpu.os.nets.assembler import guarded, shipped
        from ncpu.os.neural import WeightsMissing

        try:
            program, overrides = guarded(shipped(), read_text(args.file))
        except WeightsMissing as error:
            raise CommandError(str(error)) from None
        note = f"neural assembler, {overrides} override(s)"
        print(f"{args.file}: {note}", file=sys.stderr)
    if args.output == "-":
        for address, word in enumerate(program.words):
            print(f"{address:6d}: {word:08x}")
        return 0
    output = Path(args.output) if args.output else Path(args.file).with_suffix(".bin")
    if output.resolve() == Path(args.file).resolve():
        raise CommandError(f"{output} would overwrite the source; name the output with -o FILE.bin")
    try:
        output.write_bytes(words_to_binary(program.words))
    except OSError as error:
        raise CommandError(f"cannot write {output}: {error.strerror or error}") from None
    print(f"{output}: {len(program.words)} words", file=sys.stderr)
    return 0
