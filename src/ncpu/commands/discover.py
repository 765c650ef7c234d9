"""`ncpu discover`: find an nCPU program from input/output examples."""

from __future__ import annotations

import json
import math
import sys

from ncpu.cli import CommandError
from ncpu.commands._args import positive

# Examples asked of an --oracle expression when no --example is given.
SEED_EXAMPLES = 8


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
    asking = parser.add_argument_group(
        "asking an oracle", "When programs that fit every example disagree on some input, ask for that input's "
                            "output, add it as an example and search again (Jha et al., ICSE 2010).")
    asking.add_argument("--oracle", metavar="EXPR",
                        help="a Python expression over the input registers r0, r1, ... (signed; u(v) reads v unsigned) "
                             "that computes the wanted outputs, e.g. '(r0 + r1) >> 1'; without --example/--spec, "
                             f"its values on {SEED_EXAMPLES} probe inputs are the examples")
    asking.add_argument("--ask", action="store_true",
                        help="ask at the terminal instead (a blank answer stops the questions)")
    asking.add_argument("--max-queries", type=positive, default=32, metavar="N",
                        help="ask at most N questions (default 32)")
    asking.add_argument("--confirm", type=int, default=None, metavar="N",
                        help="when no fitting program disagrees, also check the program on N more inputs the oracle "
                             "answers (default 64 with --oracle, 0 with --ask)")
    parser.set_defaults(func=run)


def _inline_spec(args):
    from ncpu.synth import parse_example, parse_spec

    pairs = [parse_example(text) for text in args.example]
    n_in, n_out = len(pairs[0][0]), len(pairs[0][1])
    inputs = args.inputs.split(",") if args.inputs else [f"R{i}" for i in range(n_in)]
    outputs = args.outputs.split(",") if args.outputs else [f"R{i}" for i in range(n_out)]
    return parse_spec({"name": "inline", "inputs": [r.strip() for r in inputs], "outputs": [r.strip() for r in outputs],
                       "examples": [{"in": i, "out": o} for i, o in pairs]})


def _oracle_only_spec(args):
    """No examples given: the --oracle expression's values on a few probe inputs."""
    from ncpu.commands._oracle import expression_oracle, seed_examples
    from ncpu.synth import parse_spec

    inputs = [r.strip() for r in (args.inputs or "R0").split(",")]
    outputs = [r.strip() for r in (args.outputs or "R0").split(",")]
    shape = parse_spec({"inputs": inputs, "outputs": outputs, "examples": [{"in": [0] * len(inputs),
                                                                             "out": [0] * len(outputs)}]})
    oracle = expression_oracle(args.oracle, shape.inputs)
    from ncpu.isa.semantics import wrap

    examples = [{"in": row, "out": [wrap(v) if isinstance(v, int) else v
                                    for v in (out if isinstance(out, (list, tuple)) else [out])]}
                for row, out in seed_examples(oracle, shape.inputs, SEED_EXAMPLES)]
    return parse_spec({"name": "oracle", "inputs": inputs, "outputs": outputs, "examples": examples})


def _oracle(args, spec):
    """The callable asked about distinguishing inputs (None: no oracle)."""
    from ncpu.synth.oracle import check_oracle_spec

    if not (args.oracle or args.ask):
        return None
    check_oracle_spec(spec)
    from ncpu.commands._oracle import expression_oracle, prompt_oracle

    return expression_oracle(args.oracle, spec.inputs) if args.oracle else prompt_oracle(spec.inputs, spec.outputs)


def run(args) -> int:
    from ncpu.synth import FAMILIES, SpecError, load_spec, synthesize
    from ncpu.synth.portfolio import LIKE_EXAMPLES

    if args.spec and args.example:
        raise CommandError("give either --spec FILE or one or more --example 'IN->OUT', not both")
    if not args.spec and not args.example and not args.oracle:
        raise CommandError("give --spec FILE, one or more --example 'IN->OUT', or an --oracle expression")
    if args.oracle and args.ask:
        raise CommandError("give --oracle EXPR or --ask, not both")
    families = None
    if args.families:
        families = [f.strip() for f in args.families.split(",")]
        unknown = [f for f in families if f not in FAMILIES]
        if unknown:
            raise CommandError(f"unknown solver family '{unknown[0]}' (choose from {', '.join(FAMILIES)})")
    if not math.isfinite(args.timeout) or args.timeout <= 0:
        raise CommandError("--timeout must be a positive number of seconds")
    try:
        spec = load_spec(args.spec) if args.spec else _inline_spec(args) if args.example else _oracle_only_spec(args)
        oracle = _oracle(args, spec)
    except SpecError as error:
        raise CommandError(str(error)) from None

    progress = None
    if not args.json and sys.stderr.isatty():
        def progress(elapsed: float) -> None:
            print(f"\rsearching... {elapsed:5.1f}s / {args.timeout:g}s", end="", file=sys.stderr, flush=True)

    confirm = args.confirm if args.confirm is not None else (64 if args.oracle else 0)
    try:
        result = synthesize(spec, timeout=args.timeout, families=families, use_cache=not args.no_cache,
                            progress=progress, oracle=oracle, max_queries=args.max_queries, confirm=max(0, confirm))
    except SpecError as error:  # the oracle's answer had the wrong shape
        raise CommandError(str(error)) from None
    if progress:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr)
    if args.json:
        print(json.dumps({"solved": result.solved, "asm": result.asm, "python": result.python,
                          "solver": result.solver, "seconds": round(result.seconds, 4),
                          "underdetermined": result.underdetermined, "disagreement": result.disagreement,
                          "chance_fit": result.chance_fit,
                          "queries": result.queries, "contradicted": result.contradicted}))
    elif result.solved:
        origin = f"{result.solver} (from cache)" if result.cached else result.solver
        print(f"; found by {origin} in {result.seconds:.2f}s\n{result.asm}\n\n{result.python}", end="")
        if result.queries:
            print(f"; asked the oracle {len(result.queries)} question(s): "
                  + ", ".join(f"{q['in']}->{q['out']}" for q in result.queries[:8])
                  + (", ..." if len(result.queries) > 8 else ""))
        if result.contradicted:
            print("; no program that also fits the oracle's answer(s) on "
                  + ", ".join(f"{q['in']}->{q['out']}" for q in result.contradicted[:4])
                  + " was found in time: this is the last program found, which fits your examples but not those")
        d = result.disagreement
        if result.underdetermined and (d is None or d["where"] != LIKE_EXAMPLES):  # the chance-fit test
            print("; only consistent with the examples, perhaps by chance: programs of its size fit the examples' "
                  f"outputs rearranged at random with probability {result.chance_fit:.2g}; add examples to decide, "
                  "or give --oracle/--ask")
        elif result.underdetermined:
            print("; only consistent with the examples: another program that fits them all computes "
                  f"something else on inputs like theirs (on {d['in']} this one gives {d['outputs'][0]}, "
                  f"the other {d['outputs'][1]}); add examples to decide, or give --oracle/--ask")
        elif d is not None:
            print("; another program that fits the examples differs only on edge words outside their range "
                  f"(on {d['in']} this one gives {d['outputs'][0]}, the other {d['outputs'][1]})")
    else:
        print(f"no program found in {args.timeout:g}s", file=sys.stderr)
    return 0 if result.solved else 1
