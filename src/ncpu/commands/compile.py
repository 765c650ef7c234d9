"""`ncpu compile`: nsl source to nCPU assembly, optionally through the proven peephole optimizer."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ncpu.commands._load import read_text

OPTIMIZERS = ("none", "classical", "neural")


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
    parser.add_argument("--optimize", choices=OPTIMIZERS, default="none",
                        help="peephole-optimize the output: 'classical' tries every candidate rewrite of every "
                             "window of 2-4 instructions, 'neural' the ones a trained network picks; either way "
                             "a rewrite is kept only when the SMT solver cvc5 proves it equivalent (registers, "
                             "flags and memory; docs/nsl.md). Default none")
    parser.add_argument("-O", dest="optimize", action="store_const", const="neural",
                        help="the same as --optimize neural")
    parser.add_argument("--stats", action="store_true",
                        help="print what the optimizer did (rewrites, proofs, overrides) on stderr")
    parser.set_defaults(func=run)


def _optimize(compiled, how: str, stats: bool):
    from dataclasses import replace

    from ncpu.cli import CommandError
    from ncpu.nsl import peephole
    from ncpu.nsl.equivalence import solver_available

    if not solver_available():
        raise CommandError("--optimize needs the SMT solver cvc5 (pip install 'ncpu[optimizer]' or cvc5)")
    if how == "neural":
        from ncpu.os.compiler_opt import load
        from ncpu.os.nets.optimizer import chooser
        from ncpu.os.neural import WeightsMissing

        try:
            choose = chooser(load())
        except WeightsMissing as error:
            raise CommandError(str(error)) from None
    else:
        choose = peephole.greedy
    assembly, report = peephole.optimize(compiled.assembly, compiled.mem_size, choose)
    if stats:
        print(f"optimizer ({how}): {report.before} -> {report.after} instructions, {len(report.applied)} "
              f"rewrites proven, {report.guard_calls} candidates checked ({report.smt_calls} by the solver), "
              f"{report.rejected} refused by the guard", file=sys.stderr)
        for rewrite in report.applied:
            print(f"  {rewrite.kind}: {' ; '.join(rewrite.old)}  =>  {' ; '.join(rewrite.new) or '(nothing)'}"
                  f"   [live after: {' '.join(rewrite.live)}]", file=sys.stderr)
    return replace(compiled, assembly=assembly)


def run(args: argparse.Namespace) -> int:
    from ncpu.cli import CommandError
    from ncpu.nsl import NslError, compile_source

    source = read_text(args.file)
    try:
        compiled = compile_source(source, Path(args.file).name)
    except NslError as error:
        print(f"{args.file}:{error.line}:{error.column}: {error.reason}", file=sys.stderr)
        return 1
    if args.optimize != "none":
        compiled = _optimize(compiled, args.optimize, args.stats)
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
