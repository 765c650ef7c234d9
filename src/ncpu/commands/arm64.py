"""`ncpu arm64`: run a static AArch64 Linux binary (`ncpu disasm --arch arm64` disassembles one).

    ncpu arm64 [--root DIR] [--max-steps N] [--seed S] [--host-time] [--stats] BINARY [ARGS...]
"""

from __future__ import annotations

import argparse
import os
import sys

from ncpu.cli import CommandError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "arm64", help="run a static AArch64 Linux binary",
        description="Run a static AArch64 Linux executable on the nCPU ARM64 machine. "
                    "(`ncpu disasm --arch arm64 FILE` disassembles one.)")
    parser.add_argument("--root", metavar="DIR", help="directory the guest sees as / (default: a fresh empty one)")
    parser.add_argument("--max-steps", type=int, default=None, metavar="N",
                        help="instruction budget over all guest processes (default 10^10)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the guest's randomness (default 0)")
    parser.add_argument("--host-time", action="store_true", help="use the host clock and entropy (not deterministic)")
    parser.add_argument("--stats", action="store_true", help="print instructions, wall time and MIPS to stderr")
    parser.add_argument("binary", metavar="BINARY", help="host path of the executable")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the guest")
    parser.set_defaults(func=main)


def main(args) -> int:
    from ncpu.arm64.linux import ElfError, Machine
    from ncpu.arm64.linux.machine import DEFAULT_MAX_STEPS

    binary = args.binary
    if not os.path.isfile(binary):
        raise CommandError(f"{binary}: no such file")
    if args.root is not None and not os.path.isdir(args.root):
        raise CommandError(f"--root {args.root}: not a directory")
    if args.max_steps is not None and args.max_steps <= 0:
        raise CommandError("--max-steps must be positive")
    machine = Machine(root=args.root, max_steps=args.max_steps or DEFAULT_MAX_STEPS, seed=args.seed,
                      host_time=args.host_time, on_message=_message)
    # argv[0] is the path inside the root when the binary lives there (as exec would give)
    argv0 = binary
    if args.root is not None:
        real_root = os.path.realpath(args.root)
        real = os.path.realpath(binary)
        if real.startswith(real_root + os.sep):
            argv0 = "/" + os.path.relpath(real, real_root)
    try:
        sys.stdout.flush()
        result = machine.run(binary, [argv0, *args.args])
    except ElfError as error:
        raise CommandError(str(error)) from None
    if args.stats:
        print(f"ncpu: {result.instructions} instructions in {result.wall_s:.3f} s "
              f"({result.mips:.2f} MIPS)", file=sys.stderr)
    return result.status


def _message(text: str) -> None:
    print(f"ncpu: {text}", file=sys.stderr, flush=True)
