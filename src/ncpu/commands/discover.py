"""`ncpu discover`: find an nCPU program from input/output examples."""

from __future__ import annotations

import json
import math
import sys

from ncpu.cli import CommandError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "discover", help="synthesise a program from input/output examples",
        description="Search for an nCPU program that maps the inputs to the outputs. Inline examples "
                    "read inputs from R0, R1, ... and outputs from R0, R1, ... unless --inputs/--outputs say otherwise.")
    parser.add_argument("--spec", metavar="FILE.json", help="a specification file (see docs/synthesis.md)")
    parser.add_argument("--example", action="append", default=[], metavar="'3,5->8'",
                        help="one example: inputs -> outputs (repeatable; write --example=-1,2->1 when it starts with '-')")
    parser.add_argument("--inputs", help="input registers for --example, e.g. R0,R1 (default R0..)")
    parser.add_argument("--outputs", help="output registers for --example, e.g. R7 (default R0..)")
    parser.add_argument("--timeout", type=float, default=60.0, metavar="S", help="search budget in seconds (default 60)")
    parser.add_argument("--families", help="comma-separated subset of: enumerative,sketch,stochastic,gradient")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the solution cache")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def _inline_spec(args):
    from ncpu.synth import parse_example, parse_spec

    pairs = [parse_example(text) for text in args.example]
    n_in, n_out = len(pairs[0][0]), len(pairs[0][1])
    inputs = args.inputs.split(",") if args.inputs else [f"R{i}" for i in range(n_in)]
    outputs = args.outputs.split(",") if args.outputs else [f"R{i}" for i in range(n_out)]
    return parse_spec({"name": "inline", "inputs": [r.strip() for r in inputs], "outputs": [r.strip() for r in outputs],
                       "examples": [{"in": i, "out": o} for i, o in pairs]})


def run(args) -> int:
    from ncpu.synth import FAMILIES, SpecError, load_spec, synthesize

    if bool(args.spec) == bool(args.example):
        raise CommandError("give either --spec FILE or one or more --example 'IN->OUT'")
    families = None
    if args.families:
        families = [f.strip() for f in args.families.split(",")]
        unknown = [f for f in families if f not in FAMILIES]
        if unknown:
            raise CommandError(f"unknown solver family '{unknown[0]}' (choose from {', '.join(FAMILIES)})")
    if not math.isfinite(args.timeout) or args.timeout <= 0:
        raise CommandError("--timeout must be a positive number of seconds")
    try:
        spec = load_spec(args.spec) if args.spec else _inline_spec(args)
    except SpecError as error:
        raise CommandError(str(error)) from None

    progress = None
    if not args.json and sys.stderr.isatty():
        def progress(elapsed: float) -> None:
            print(f"\rsearching... {elapsed:5.1f}s / {args.timeout:g}s", end="", file=sys.stderr, flush=True)

    result = synthesize(spec, timeout=args.timeout, families=families, use_cache=not args.no_cache, progress=progress)
    if progress:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr)
    if args.json:
        print(json.dumps({"solved": result.solved, "asm": result.asm, "python": result.python,
                          "solver": result.solver, "seconds": round(result.seconds, 4),
                          "underdetermined": result.underdetermined}))
    elif result.solved:
        origin = f"{result.solver} (from cache)" if result.cached else result.solver
        print(f"; found by {origin} in {result.seconds:.2f}s\n{result.asm}\n\n{result.python}", end="")
        if result.underdetermined:
            print("; only consistent with the examples: another program that fits them all computes "
                  "something else on other inputs (add examples to decide)")
    else:
        print(f"no program found in {args.timeout:g}s", file=sys.stderr)
    return 0 if result.solved else 1
