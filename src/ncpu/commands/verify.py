"""`ncpu verify`: prove the neural ALU exact by enumeration and sampling.

Exit status 0 only when every check passes."""

from __future__ import annotations

import json

from ncpu.commands._cluster import add_cluster_arguments, shard_runner


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "verify", help="verify the neural ALU (enumeration, sampling, margins)",
        description="Check the neural ALU: every cell over its whole input space, every operation at "
                    "8 bits over all 2^16 pairs, the 32-bit instance on random and boundary pairs, and the "
                    "smallest margin of any pre-activation from its threshold. Exit 0 only when all pass. "
                    "See docs/verification.md.")
    parser.add_argument("--json", action="store_true", help="print every check as JSON")
    parser.add_argument("--exhaustive16", action="store_true",
                        help="also run the 16-bit instance over all 2^32 pairs per op (hours on a CPU)")
    parser.add_argument("--weights", choices=["trained", "analytic"], default="trained",
                        help="weights to verify (default: the shipped trained weights)")
    parser.add_argument("--samples", type=int, default=1_000_000,
                        help="random 32-bit pairs per op (default 1,000,000)")
    parser.add_argument("--device", default="cpu", help="torch device for the composite checks")
    parser.add_argument("--ops", default=None, metavar="LIST",
                        help="comma-separated operations for the composite checks (default: all of "
                             "ADD,SUB,MUL,DIV,MOD,AND,OR,XOR,SHL,SHR,SAR,NOT,NEG,CMP,ZN); every cell is "
                             "always checked. E.g. --exhaustive16 --ops DIV,MOD --device cuda")
    add_cluster_arguments(parser)  # the 16-bit enumeration's shards (2^24 pairs each)
    parser.set_defaults(func=run_verify)


def run_verify(args) -> int:
    import time

    from tqdm import tqdm

    from ncpu.alu.verify import as_dict, verify
    from ncpu.alu.weights import WeightsError
    from ncpu.cli import CommandError
    from ncpu.commands._torch import check_device

    from ncpu.alu.verify import COMPOSITE

    if args.samples < 0:
        raise CommandError("--samples must be >= 0")
    ops = COMPOSITE if args.ops is None else tuple(op.strip().upper() for op in args.ops.split(",") if op.strip())
    unknown = sorted(set(ops) - set(COMPOSITE))
    if unknown or not ops:
        raise CommandError(f"--ops: unknown operation(s) {', '.join(unknown) or '(none given)'}; "
                           f"choose from {','.join(COMPOSITE)}")
    check_device(args.device)
    # On a cluster, each worker asks Ray for a GPU when the checks run on CUDA.
    run_shards = shard_runner(args, gpus_per_shard=1.0 if args.device.startswith("cuda") else 0.0)
    checks = []
    start = time.perf_counter()
    with tqdm(desc="verify", unit="pair", unit_scale=True, disable=args.json) as bar:
        def progress(op: str, count: int) -> None:
            bar.set_postfix_str(op)
            bar.update(count)
        try:
            for check in verify(args.weights, args.samples, args.exhaustive16, args.device, progress, ops,
                                run_shards):
                checks.append(check)
        except WeightsError as error:
            raise CommandError(str(error)) from None
    elapsed = time.perf_counter() - start
    ok = all(c.ok for c in checks)
    if args.json:
        print(json.dumps({"ok": ok, "weights": args.weights, "seconds": round(elapsed, 2),
                          "checks": [as_dict(c) for c in checks]}, indent=1))
        return 0 if ok else 1
    print(f"{'check':<32} {'width':>5} {'kind':<10} {'inputs':>14} {'fail':>5} {'margin':>9} {'s':>7}")
    for c in checks:
        margin = "" if c.margin is None else f"{c.margin:.4g}"
        print(f"{c.name:<32} {c.width:>5} {c.kind:<10} {c.inputs:>14,} {c.failures:>5} {margin:>9} {c.seconds:>7.2f}")
    cells = [c for c in checks if c.kind == "cell"]
    worst = min(cells, key=lambda c: c.margin)
    total = sum(c.inputs for c in checks)
    print(f"{len(checks)} checks, {total:,} inputs, {sum(c.failures for c in checks)} failures, "
          f"{elapsed:.1f} s; smallest margin {worst.margin:.4g} ({worst.name}, width {worst.width})")
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1
