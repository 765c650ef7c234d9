"""`ncpu os run | train | eval`: neurOS, the nCPU operating system."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ncpu.cli import CommandError
from ncpu.commands._args import at_most, positive


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "os", help="run programs as processes under neurOS; train and evaluate its networks",
        description="neurOS runs nCPU programs as processes (time slices, virtual memory, system calls, "
                    "pipes, files: docs/neuros.md). Its decisions are classical code or trained networks "
                    "behind a counted safety guard; results are the same under both.")
    sub = parser.add_subparsers(dest="os_command", metavar="ACTION", required=True)

    run = sub.add_parser("run", help="run a workload of programs as processes",
                         description="Start one process per PROG.asm (its header sets its registers, memory "
                                     "size and step budget) and run them all to the end; print each "
                                     "process's result and the OS statistics.")
    run.add_argument("files", nargs="+", metavar="PROG.asm", help="programs, started in this order")
    run.add_argument("--policy", choices=("neural", "classical"), default="neural",
                     help="who makes the kernel's decisions (default neural; results do not depend on it)")
    run.add_argument("--engine", choices=("reference", "compute", "fast", "neural"), default="compute",
                     help="engine the processes run on (default compute)")
    run.add_argument("--slice", type=positive, default=200, metavar="N",
                     help="timer interrupt every N instructions (default 200)")
    run.add_argument("--frames", type=at_most(1 << 16), default=1024,
                     help="physical page frames of 64 words (default 1024, at most 65,536)")
    run.add_argument("--input", default="", metavar="TEXT", help="what fd 0 reads (default: nothing)")
    run.add_argument("--memory-stats", action="store_true",
                     help="simulate the TLB, data cache and prefetcher under the classical policy too (the "
                          "neural policy always does: its networks decide there); replays every slice on the "
                          "reference engine, several times the cost of the run")
    run.add_argument("--json", action="store_true", help="print exactly one JSON object")
    run.set_defaults(func=run_workload)

    train = sub.add_parser("train", help="train every trained part and check it against its oracle",
                           description="Train every part from the seed (CPU minutes): the exact ones "
                                       "(interrupt controller, MMU, assembler) are enumerated against their "
                                       "oracles and saved only if exact; the learned ones (TLB, cache, "
                                       "prefetcher, scheduler, watchdog, allocator, and the compiler optimizer "
                                       "when cvc5 is installed) are judged on held-out workloads and their "
                                       "figures printed.")
    train.add_argument("--out", type=Path, default=None, help="weights directory (default: the shipped ones)")
    train.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    train.add_argument("--device", default=None, help="torch device (default cpu)")
    train.set_defaults(func=run_train)

    evaluate = sub.add_parser("eval", help="print the table of trained parts against their oracles",
                              description="Each part: its metric for the classical policy, the oracle and the "
                                          "network, and the guard's overrides (the exact parts while running "
                                          "programs/os; the TLB, cache and prefetcher on held-out traces).")
    evaluate.add_argument("--weights", type=Path, default=None, help="weights directory (default: the shipped ones)")
    evaluate.add_argument("--device", default=None, help="torch device (default cpu)")
    evaluate.add_argument("--json", action="store_true", help="print exactly one JSON object")
    evaluate.set_defaults(func=run_eval)


def _device(name: str | None):
    """A torch device by name, or one line saying why not."""
    if name is None:
        return None
    import torch

    try:
        device = torch.device(name)
        torch.zeros(1, device=device)  # a device this torch build and machine can use
        return device
    except Exception as error:  # torch raises RuntimeError, ValueError or AssertionError here
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise CommandError(f"--device {name[:40]!r}: {reason[:200]}") from None


def _images(paths: list[str], policies=None):
    from ncpu.commands._load import assemble_file
    from ncpu.machine.program_file import ProgramFileError
    from ncpu.os.workload import load_images

    for path in paths:
        assemble_file(path)  # errors as file:line:col
    try:
        return load_images(paths, policies)
    except ProgramFileError as error:
        raise CommandError(str(error)) from None


def _policies(name: str, weights: Path | None = None, device=None):
    if name == "classical":
        from ncpu.os.policies import ClassicalPolicies
        return ClassicalPolicies()  # without importing torch (a second of start-up)
    from ncpu.os.neural import NeuralPolicies, WeightsMissing, WEIGHTS

    try:
        return NeuralPolicies(weights or WEIGHTS, device)
    except WeightsMissing as error:
        raise CommandError(str(error)) from None


def run_workload(args: argparse.Namespace) -> int:
    from ncpu.os.kernel import Kernel

    policies = _policies(args.policy)
    images = _images(args.files, policies)  # the loader assembles through the policy's assembler
    kernel = Kernel(images, policies, engine=args.engine, slice_steps=args.slice,
                    frames=args.frames, stdin=args.input.encode("utf-8"),
                    memory_stats=True if args.memory_stats else None).run()
    report = kernel.report()
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"neurOS: {len(report['processes'])} processes, policy {report['policy']}, engine {args.engine}")
    print(f"{'pid':>4} {'ppid':>4}  {'program':<14} {'ended':<12} {'status':>7} {'steps':>9} {'faults':>6} "
          f"{'turnaround':>10}  stdout")
    for p in report["processes"]:
        status = "-" if p["exit_status"] is None else p["exit_status"]
        print(f"{p['pid']:>4} {p['parent']:>4}  {p['program']:<14} {p['ended']:<12} {status:>7} {p['steps']:>9,} "
              f"{p['page_faults']:>6} {p['turnaround_ticks']:>10}  {json.dumps(p['stdout'])}")
    for p in report["processes"]:
        if p.get("flagged_at_steps") is not None:
            print(f"watchdog: pid {p['pid']} flagged as not terminating at {p['flagged_at_steps']:,} instructions "
                  f"(reported only; it ended by: {p['ended']})")
    stats = report["stats"]
    print("stats: " + ", ".join(f"{k} {v:,}" if isinstance(v, int) else f"{k} {v:.3f}" for k, v in stats.items()))
    m = report["memory"]
    if m is not None:
        print(f"memory: TLB hits {m['tlb_hits']:,} misses {m['tlb_misses']:,} ({m['tlb_hit_rate']:.2%}); "
              f"cache hits {m['cache_hits']:,} misses {m['cache_misses']:,} ({m['cache_hit_rate']:.2%}); "
              f"prefetch useful {m['prefetch_useful']:,} of {m['prefetch_issued']:,} issued")
    print("decisions: " + ", ".join(f"{k} {v:,}" for k, v in report["decisions"].items())
          + "; overrides: " + (", ".join(f"{k} {v:,}" for k, v in report["overrides"].items()) or "none"))
    for name, text in report["files"].items():
        print(f"file {name!r}: {json.dumps(text)}")
    return 0


def run_train(args: argparse.Namespace) -> int:
    from ncpu.os.neural import WEIGHTS
    from ncpu.os.training import train_all

    device = _device(args.device)
    try:
        results = train_all(args.out or WEIGHTS, device, log=lambda line: print(line, file=sys.stderr),
                            seed=args.seed)
    except OSError as error:
        raise CommandError(f"cannot write the weights: {error.strerror or error}") from None
    failed = [name for name, check in results.items() if check.get("wrong")]
    print(json.dumps(results))
    return 1 if failed else 0


def run_eval(args: argparse.Namespace) -> int:
    from ncpu.os.neural import WEIGHTS, WeightsMissing
    from ncpu.os.training import evaluate
    from ncpu.os.workload import load_images

    paths = sorted((Path(__file__).resolve().parents[3] / "programs" / "os").glob("*.asm"))
    workload = load_images(paths) if paths else None
    try:
        rows = evaluate(args.weights or WEIGHTS, _device(args.device), workload,
                        [path.read_text(encoding="utf-8") for path in paths],
                        log=lambda line: print(f"ncpu os eval: {line} ...", file=sys.stderr, flush=True))
    except WeightsMissing as error:
        raise CommandError(str(error)) from None
    if args.json:
        print(json.dumps({"parts": rows}))
        return 0
    print(f"{'part':<22} {'metric':<46} {'cases':>9} {'classical':>9} {'oracle':>7} {'neural':>7} "
          f"{'decisions':>9} {'overrides':>9}")
    for r in rows:
        print(f"{r['part']:<22} {r['metric']:<46} {r['cases']:>9,} {r['classical']:>9.4f} {r['oracle']:>7.4f} "
              f"{r['neural']:>7.4f} {r['run_decisions']:>9,} {r['overrides']:>9,}")
    for r in rows:
        if "normalised" in r:
            print(f"{r['part']}: neural normalised {r['normalised']:+.3f} (LRU = 0, MIN = 1)")
        if "coverage_neural" in r:
            print(f"{r['part']}: coverage (useful/misses) stride {r['coverage_classical']:.4f}, "
                  f"neural {r['coverage_neural']:.4f}; issued stride {r['issued_classical']:,}, "
                  f"neural {r['issued_neural']:,}")
    return 0
