"""`ncpu pipeline`: nsl source to pixels through the networks, and gradient descent on an input."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ncpu.cli import CommandError
from ncpu.commands._args import at_most
from ncpu.commands._load import read_text


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "pipeline",
        help="nsl source -> compiler -> neural assembler -> neural CPU -> neural display -> pixels",
        description=(
            "Compile FILE.nsl, assemble it through the neural assembler (checked word by word against the "
            "classical one), run it on the neural engine "
            "(every ALU operation and flag through the circuits) with its standard output laid out on "
            "the 40x12 text screen, and render that screen through the neural display. The same "
            "program is run the exact way (reference engine, classical renderer) and the pixels "
            "compared. --soft runs the differentiable pipeline too; --target searches, by gradient "
            "descent through it, for the input R1 that makes the program print TARGET (docs/pipeline.md)."),
    )
    parser.add_argument("file", metavar="FILE.nsl", help="nsl source")
    parser.add_argument("--png", metavar="OUT.png", help="write the screen (the found input's, with --target)")
    parser.add_argument("--args", type=int, nargs="*", default=[], metavar="N",
                        help="main's parameters (R1, R2, ...); default none (0)")
    parser.add_argument("--max-steps", type=at_most(1 << 40), default=1_000_000, metavar="N", help="instruction budget")
    parser.add_argument("--soft", action="store_true",
                        help="also run the soft (differentiable) pipeline and compare its pixels")
    parser.add_argument("--target", metavar="TEXT",
                        help="gradient descent on R1 until the program prints TEXT and a newline")
    parser.add_argument("--bits", type=int, default=16, metavar="K", help="with --target: search R1's low K bits")
    parser.add_argument("--steps", type=at_most(1 << 40), default=100, metavar="N", help="with --target: at most N steps")
    parser.add_argument("--candidates", type=at_most(1 << 40), default=3, metavar="C",
                        help="with --target: flips tried per step, best first by the gradient's estimate "
                             "(1: the gradient alone decides)")
    parser.add_argument("--start", type=int, default=0, metavar="X", help="with --target: the first R1")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import torch

    from ncpu.nsl import NslError
    from ncpu.pipeline.stages import classical_pixels, neural_pixels, run_pipeline

    torch.set_num_threads(1)
    source = read_text(args.file)
    if not 1 <= args.bits <= 31:
        raise CommandError("--bits must be 1..31")
    try:
        result = run_pipeline(source, args.args, Path(args.file).name, args.max_steps)
    except NslError as error:
        print(f"{args.file}:{error.line}:{error.column}: {error.reason}", file=sys.stderr)
        return 1
    except ValueError as error:
        raise CommandError(str(error)) from None
    report = {
        "instructions": len(result.built.words),
        "assembler_overrides": result.built.assembler_overrides,
        "same_words": result.built.words == result.built.classical_words,
        "steps": result.neural.final.steps,
        "halted": result.neural.final.halted,
        "exit_status": result.neural.exit_status,
        "output": result.neural.output.decode("latin-1"),
        "same_pixels": result.same_pixels,
        "same_output": result.neural.output == result.exact.output,
    }
    frame = result.pixels
    if args.soft:
        report["soft_same_pixels"] = soft_pixels_match(result, args)
    if args.target is not None:
        descent = search(result.built, args)
        report["descent"] = {"target": descent.target.decode("latin-1"), "found": descent.found,
                             "verified": descent.verified, "steps": descent.iterations,
                             "runs": descent.evaluations, "losses": [round(h[1], 6) for h in descent.history]}
        if descent.found is not None:
            from ncpu.pipeline.stages import execute

            found = execute(result.built, [descent.found])
            frame = neural_pixels(found.terminal)
            report["descent"]["same_pixels"] = bool((frame == classical_pixels(found.terminal)).all())
    if args.png:
        from ncpu.display.image import PillowMissing, save_png

        try:
            save_png(frame, args.png)
        except PillowMissing as error:
            raise CommandError(str(error)) from None
        except OSError as error:
            raise CommandError(f"cannot write {args.png}: {error.strerror or error}") from None
    if args.json:
        print(json.dumps(report))
    else:
        print(summary(args, report))
    return 0


def soft_pixels_match(result, args) -> bool:
    import torch

    from ncpu.pipeline.differentiable import SoftPipeline

    pipeline = SoftPipeline(result.built, relaxed=False)
    registers = {1 + i: pipeline.machine.const(value) for i, value in enumerate(args.args)}
    with torch.no_grad():
        pixels, soft = pipeline.run(registers, args.max_steps)
    return bool(soft.output == result.exact.output and (pixels[0].numpy() == result.exact_pixels).all())


def search(built, args):
    from tqdm import tqdm

    from ncpu.pipeline.differentiable import descend

    target = args.target.encode("latin-1", "replace") + b"\n"
    with tqdm(total=args.steps, desc="descent", unit="step", file=sys.stderr,
              disable=args.json or not sys.stderr.isatty()) as bar:
        def progress(step, x, loss, output):
            bar.set_postfix(x=x, loss=f"{loss:.5f}", shows=output.decode("latin-1").strip()[:20])
            bar.update(1)
        return descend(built, target, 1, args.bits, args.steps, args.candidates, args.start, progress=progress)


def summary(args, report: dict) -> str:
    lines = [f"{args.file}: {report['instructions']} instructions from the neural assembler "
             f"({report['assembler_overrides']} overrides); neural engine: {report['steps']:,} steps, "
             f"exit status {report['exit_status']}",
             f"  output: {report['output']!r}",
             "  pixels: neural engine + neural display " + ("==" if report["same_pixels"] else "!=")
             + " reference engine + classical renderer"]
    if "soft_same_pixels" in report:
        lines.append("  soft (differentiable) pipeline: " + ("same pixels" if report["soft_same_pixels"]
                                                             else "DIFFERENT pixels"))
    if "descent" in report:
        d = report["descent"]
        if d["found"] is None:
            lines.append(f"  descent: no input printing {d['target']!r} within {d['steps']} steps ({d['runs']} runs)")
        else:
            lines.append(f"  descent: R1 = {d['found']} prints {d['target']!r} after {d['steps']} steps "
                         f"({d['runs']} runs, loss {d['losses'][0]:.5f} -> {d['losses'][-1]:.5f}); "
                         f"reference engine: {'verified' if d['verified'] else 'NOT verified'}")
    if args.png:
        lines.append(f"  wrote {args.png}")
    return "\n".join(lines)
