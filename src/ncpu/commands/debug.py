"""`ncpu debug TOOL [OPTIONS] -- BINARY [ARGS...]`: analyses of an ARM64 guest run.

    ncpu debug strace   [-o FILE] [--json] [--root DIR] -- BINARY [ARGS...]
    ncpu debug trace    [--function F] [--range A:B] [--from N] [--to N] [--limit N] -- BINARY ...
    ncpu debug profile  [--format flat|collapsed] [--top N] -- BINARY ...
    ncpu debug coverage [-o FILE.info] -- BINARY ...
    ncpu debug ct       (--secret FILE ... | --random N --size K) [--function F] -- BINARY ...
    ncpu debug diff     [--stdin A --stdin B] [--args-b ARGS] [--seed A --seed B] -- BINARY ...
    ncpu debug sanitize [--stdin FILE] -- BINARY ...
    ncpu debug taint    [--bytes A:B] [--argv K] [--stdin FILE] -- BINARY ...
    ncpu debug reverse  [--register R | --memory A:N] [--at-pc SYM | --at N] -- BINARY ...
    ncpu debug fuzz     [--executions N] [--seed S] [--corpus DIR] [--jobs N] -- BINARY ...

The analyses (all but strace) read the instruction trace of the loop's hooks
(ncpu.debug.tracing); the library code is in src/ncpu/debug/, this module
only parses, calls and prints.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from ncpu.cli import CommandError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "debug", help="analyse an ARM64 guest run (strace, trace, profile, coverage, sanitize, taint, reverse, ct, diff, fuzz, asm)",
        description="Analyses of a run of a static AArch64 Linux executable on the ARM64 machine "
                    "(`asm`: an nCPU program on the nCPU machine). "
                    "To debug interactively, use `ncpu arm64 -g PORT BINARY` and gdb.")
    tools = parser.add_subparsers(dest="tool", metavar="TOOL")
    strace = tools.add_parser("strace", help="every system call with decoded arguments and result",
                              description="Run BINARY and print each system call it makes, as strace does "
                                          "(to stderr, or to -o FILE). The guest's own output is unchanged.")
    strace.add_argument("-o", dest="output", metavar="FILE", help="write the trace to FILE instead of stderr")
    strace.add_argument("--json", action="store_true", help="one JSON object per call (pid, nr, name, args, result)")
    strace.add_argument("--root", metavar="DIR", help="directory the guest sees as / (default: a fresh empty one)")
    strace.add_argument("--max-steps", type=int, default=None, metavar="N", help="instruction budget")
    strace.add_argument("binary", metavar="BINARY")
    strace.add_argument("args", nargs=argparse.REMAINDER)
    strace.set_defaults(func=run_strace)
    from ncpu.commands import debug_tools
    debug_tools.register(tools)
    parser.set_defaults(func=lambda args: parser.print_help() or 2)


def run_strace(args) -> int:
    from ncpu.arm64.linux import ElfError, Machine
    from ncpu.arm64.linux.machine import DEFAULT_MAX_STEPS
    from ncpu.debug.session import traced_run
    from ncpu.debug.strace import format_call

    if not os.path.isfile(args.binary):
        raise CommandError(f"{args.binary}: no such file")
    if args.root is not None and not os.path.isdir(args.root):
        raise CommandError(f"--root {args.root}: not a directory")
    guest_args = args.args[1:] if args.args[:1] == ["--"] else args.args
    try:
        out = open(args.output, "w") if args.output else sys.stderr
    except OSError as error:
        raise CommandError(f"-o {args.output}: {error.strerror}") from None
    pids: set[int] = set()

    def on_call(call) -> None:
        pids.add(call.pid)
        if args.json:
            out.write(json.dumps(call.as_dict()) + "\n")
        else:
            out.write(format_call(call, with_pid=len(pids) > 1) + "\n")
        out.flush()

    machine = Machine(root=args.root, max_steps=args.max_steps or DEFAULT_MAX_STEPS)
    try:
        sys.stdout.flush()
        result = traced_run(machine, args.binary, [args.binary, *guest_args], on_call,
                            on_message=lambda text: print(f"ncpu: {text}", file=sys.stderr, flush=True))
    except ElfError as error:
        raise CommandError(str(error)) from None
    finally:
        if args.output:
            out.close()
    if not args.json:
        status = result.wait_status
        line = (f"+++ exited with {(status >> 8) & 0xFF} +++" if status & 0x7F == 0
                else f"+++ killed by signal {status & 0x7F} +++")
        if args.output:
            with open(args.output, "a") as f:
                f.write(line + "\n")
        else:
            print(line, file=sys.stderr)
    return result.status
