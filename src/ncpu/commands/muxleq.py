"""`ncpu muxleq`: assemble and run programs on the MUXLEQ machine."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from ncpu.cli import CommandError
from ncpu.commands._args import positive
from ncpu.commands._load import read_text

MODES = ("reference", "compute", "fast", "neural")
DEFAULT_MAX_STEPS = 10 ** 11


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "muxleq", help="the MUXLEQ machine: run .dec images, assemble .masm sources",
        description="MUXLEQ: 65,536 16-bit words, SUBLEQ plus MUX (see docs/muxleq.md).")
    sub = parser.add_subparsers(dest="muxleq_command", metavar="ACTION", required=True)
    run = sub.add_parser(
        "run", help="run an image with stdin and stdout passed through",
        description="Run IMAGE (.dec cells, or .masm source assembled first; a bundled program "
                    "by name: hello, fibonacci, primes, calculator). Standard input and output "
                    "are passed through byte for byte; end of input reads as 0xFFFF.")
    run.add_argument("image", metavar="IMAGE", help=".dec image, .masm source or a bundled program's name")
    run.add_argument("--mode", choices=MODES, default="compute",
                     help="engine: reference (readable Python), compute (numba; default), "
                          "fast (torch tensors), neural (subtraction and MUX through the neural ALU)")
    run.add_argument("--max-steps", type=positive, default=DEFAULT_MAX_STEPS, metavar="N",
                     help=f"instruction budget (default {DEFAULT_MAX_STEPS:.0e})")
    run.add_argument("--stats", action="store_true", help="print steps and instructions/s on stderr at the end")
    run.set_defaults(func=run_image)
    asm = sub.add_parser("asm", help="assemble a .masm source to a .dec image",
                         description="Assemble SOURCE (see ncpu.muxleq.assembler for the syntax).")
    asm.add_argument("source", metavar="SOURCE", help=".masm source or a bundled program's name")
    asm.add_argument("-o", "--output", metavar="OUT.dec", help="write here (default: stdout)")
    asm.set_defaults(func=assemble_image)


def _assemble(source: str) -> list[int]:
    from ncpu.muxleq.assembler import BUNDLED, MuxleqAsmError, assemble, program_path

    path = program_path(source) if source in BUNDLED and not Path(source).exists() else Path(source)
    try:
        return assemble(read_text(str(path)), path.name, path.parent).cells
    except MuxleqAsmError as error:
        raise CommandError(str(error)) from None


def load_image(name: str):
    from ncpu.muxleq.state import DecFormatError, parse_dec

    if name.endswith(".dec"):
        try:
            return parse_dec(read_text(name))
        except DecFormatError as error:
            raise CommandError(f"{name}: {error}") from None
    return _assemble(name)


def _input_reader():
    """The guest's input: what standard input's descriptor has (os.read returns what is there,
    so a console answers each line as it comes), or end of input at once where standard input
    has no descriptor (a program that calls cli.main with sys.stdin replaced)."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):   # io.UnsupportedOperation is both of the last
        return lambda: b""
    return lambda: os.read(fd, 1 << 16)


def run_image(args: argparse.Namespace) -> int:
    from ncpu.muxleq.console import CHUNK, run_streams
    from ncpu.muxleq.engines import get_engine
    from ncpu.muxleq.state import MuxleqState

    state = MuxleqState.load(load_image(args.image), end_of_input=False)
    out, read_input = sys.stdout.buffer, _input_reader()

    def write(data: bytes) -> None:
        out.write(data)
        out.flush()

    started = time.perf_counter()
    # a reader that goes away (`| head`) ends the command quietly with SIGPIPE's status (cli.main)
    state = run_streams(get_engine(args.mode), state, args.max_steps,
                        read_input, write, CHUNK[args.mode])
    seconds = time.perf_counter() - started
    if args.stats:
        rate = f", {state.steps / seconds:,.0f} instructions/s" if seconds > 0 else ""
        print(f"muxleq: {state.steps:,} steps in {seconds:.3f} s ({args.mode}{rate})", file=sys.stderr)
    if not state.halted:
        print(f"ncpu: muxleq: step budget of {args.max_steps:,} exhausted at pc {state.pc}", file=sys.stderr)
        return 1
    return 0


def assemble_image(args: argparse.Namespace) -> int:
    from ncpu.muxleq.state import format_dec

    text = format_dec(_assemble(args.source))
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="ascii")
        except OSError as error:
            raise CommandError(f"cannot write {args.output}: {error.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0
