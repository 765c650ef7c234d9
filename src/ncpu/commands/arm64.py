"""`ncpu arm64`: run an AArch64 Linux binary, static or dynamic (`ncpu disasm --arch arm64` disassembles one).

    ncpu arm64 [--root DIR] [--cwd DIR] [-E VAR=VALUE]... [-U VAR]... [--clean-env] [-0 ARGV0]
               [--max-steps N] [--memory SIZE] [--max-procs N] [--seed S] [--host-time] [--stats [--json]]
               [-g PORT] [--record FILE | --replay FILE] [--publish HOSTPORT:GUESTPORT] BINARY [ARGS...]
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from ncpu.cli import CommandError

EPILOG = """environment: the guest starts with the host's environment (as qemu-aarch64 does); -E sets a variable,
-U removes one, --clean-env starts from an empty one (plus -E). The environment is part of the
program's input: the same command gives the same instruction count only with the same environment.

exit status: the guest's own (128+N when signal N ended it), except
  124  the instruction budget (--max-steps) ran out
  137  deadlock: every guest thread waits and no timeout can wake one; or the guest needed more
       memory than --memory (a message says which)
  2    bad usage, or BINARY cannot be loaded (not an AArch64 ELF file, interpreter not in --root)

dynamically linked programs need their interpreter (/lib/ld-linux-aarch64.so.1) and libraries
inside --root: `ncpu arm64-root DIR` builds a Debian arm64 root.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "arm64", help="run an AArch64 Linux binary (static or dynamic)",
        description="Run an AArch64 Linux executable on the nCPU ARM64 machine. A dynamically linked one "
                    "is loaded with its interpreter from --root. "
                    "(`ncpu disasm --arch arm64 FILE` disassembles one.)",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", metavar="DIR", help="directory the guest sees as / (default: a fresh empty one)")
    parser.add_argument("--cwd", metavar="DIR", default="/",
                        help="the guest's working directory, a path inside the root (default /)")
    parser.add_argument("-E", dest="setenv", action="append", default=[], metavar="VAR=VALUE",
                        help="set a guest environment variable (repeatable)")
    parser.add_argument("-U", dest="unsetenv", action="append", default=[], metavar="VAR",
                        help="remove a variable from the guest environment (repeatable)")
    parser.add_argument("--clean-env", action="store_true",
                        help="start the guest with an empty environment (plus what -E sets)")
    parser.add_argument("-0", dest="argv0", metavar="ARGV0", help="the guest's argv[0] (default: BINARY)")
    parser.add_argument("--max-steps", type=int, default=None, metavar="N",
                        help="instruction budget over all guest processes (default 10^10)")
    parser.add_argument("--memory", default="4G", metavar="SIZE",
                        help="guest memory of the whole machine, all processes together (default 4G; suffixes "
                             "K, M, G). Pages cost host memory only once touched. Beyond it mmap, brk and fork "
                             "fail with ENOMEM, and a page fault that needs memory ends the run (status 137)")
    parser.add_argument("--max-procs", type=int, default=256, metavar="N",
                        help="guest processes and threads alive at once (default 256); fork and clone beyond "
                             "it fail with EAGAIN")
    parser.add_argument("--seed", type=int, default=0, help="seed of the guest's randomness (default 0)")
    parser.add_argument("--host-time", action="store_true", help="use the host clock and entropy (not deterministic)")
    parser.add_argument("--native", action=argparse.BooleanOptionalAction, default=None,
                        help="translate hot code to native code (on by default; --no-native or "
                             "NCPU_NATIVE=off interprets only). Each run compiles what its time allows, "
                             "at most 1 s of CPU plus a quarter of the run's, and keeps it in the cache "
                             "directory, so a program's later runs load it and compile more: fastest once "
                             "all of it is compiled, by the second to fourth run (later after an install: "
                             "the first programs also compile, once, the functions native code is made "
                             "of). Same output and instruction count either way. NCPU_NATIVE_BUDGET="
                             "FREE,SHARE changes the limit (inf,0: none)")
    parser.add_argument("--stats", action="store_true",
                        help="print instructions, wall time, MIPS and the share run as native code to stderr")
    parser.add_argument("--json", action="store_true",
                        help="with --stats: print them as one JSON object on stderr (instructions, wall_s, "
                             "mips, status, reason, native_instructions, native_entries)")
    parser.add_argument("-g", dest="gdb_port", type=int, default=None, metavar="PORT",
                        help="wait for gdb on 127.0.0.1:PORT (`target remote :PORT`), as qemu-aarch64 -g")
    parser.add_argument("--gdb-run-on-drop", action="store_true",
                        help="with -g: if gdb's connection drops, let the guest run on (default: end it)")
    parser.add_argument("--record", metavar="FILE",
                        help="log the inputs the guest consumes (stdin; clock and entropy with --host-time) to FILE")
    parser.add_argument("--replay", metavar="FILE",
                        help="run again with the inputs a --record run logged (exact: same output and count)")
    parser.add_argument("--publish", action="append", default=[], metavar="HOSTPORT:GUESTPORT",
                        help="forward connections to the host's 127.0.0.1:HOSTPORT to the guest's TCP "
                             "port GUESTPORT (repeatable; host loopback only; such runs are not "
                             "deterministic: what the host sends, and when, decides them)")
    parser.add_argument("binary", metavar="BINARY",
                        help="the executable: with --root, an absolute path inside the root names the root's "
                             "file; otherwise a host path")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the guest")
    parser.set_defaults(func=main)


def _environment(args) -> dict[str, str]:
    env = {} if args.clean_env else dict(os.environ)
    for name in args.unsetenv:
        if not name or "=" in name:
            raise CommandError(f"-U {name!r}: not a variable name")
        env.pop(name, None)
    for item in args.setenv:
        name, eq, value = item.partition("=")
        if not name or not eq:
            raise CommandError(f"-E {item!r}: expected VAR=VALUE")
        env[name] = value
    return env


def _binary_path(args) -> str:
    """The host path of BINARY: with --root, an absolute path that names a file inside the root is
    that file (`--root R /usr/bin/ls` runs R's ls); otherwise BINARY is a host path."""
    if args.root is None or not args.binary.startswith("/"):
        return args.binary
    from ncpu.arm64.linux.errors import SyscallError
    from ncpu.arm64.linux.fs import FileSystem
    try:
        node = FileSystem(args.root).resolve(args.binary, args.cwd)
    except SyscallError:             # not a path inside the root (ENOENT, ENOTDIR, ELOOP...)
        return args.binary
    if node.kind == "host" and node.exists and os.path.isfile(node.host_path):
        return node.host_path
    return args.binary


def main(args) -> int:
    from ncpu.commands._startup import heavy_imports, one_blas_thread

    with heavy_imports(), one_blas_thread():
        from ncpu.arm64.linux import ElfError, Machine
        from ncpu.arm64.linux.hostio import PublishError
        from ncpu.arm64.linux.machine import DEFAULT_MAX_STEPS

    if args.root is not None and not os.path.isdir(args.root):
        raise CommandError(f"--root {args.root}: not a directory")
    binary = _binary_path(args)
    if not os.path.isfile(binary):
        raise CommandError(f"{binary}: no such file")
    if args.max_steps is not None and args.max_steps <= 0:
        raise CommandError("--max-steps must be positive")
    if args.json and not args.stats:
        raise CommandError("--json goes with --stats")
    env = _environment(args)
    publish = [_port_pair(spec) for spec in args.publish]
    if publish and (args.record or args.replay or args.gdb_port is not None):
        raise CommandError("--publish goes alone: not with --record, --replay or -g")
    memory = parse_size(args.memory)
    if args.max_procs <= 0:
        raise CommandError("--max-procs must be positive")
    from ncpu.arm64.cpu import native
    if args.native is not None:
        native.set_threshold(native.ON_THRESHOLD if args.native else 0)
    native.threshold(), native.build_budget()      # a bad setting stops here, before the run
    machine = Machine(root=args.root, max_steps=args.max_steps or DEFAULT_MAX_STEPS, seed=args.seed,
                      host_time=args.host_time, on_message=_message, publish=publish, memory=memory,
                      max_procs=args.max_procs, cwd=args.cwd, env=env)
    # argv[0] is the path inside the root when the binary lives there (as exec would give)
    argv0 = binary
    if args.root is not None:
        real_root = os.path.realpath(args.root)
        real = os.path.realpath(binary)
        if real.startswith(real_root + os.sep):
            argv0 = "/" + os.path.relpath(real, real_root)
    if args.argv0 is not None:
        argv0 = args.argv0
    if args.record and (args.replay or args.gdb_port is not None):
        raise CommandError("--record goes alone: not with --replay or -g")
    replay = _load_replay(args, binary, machine) if args.replay else None
    if args.gdb_port is not None:
        return _gdb(machine, binary, [argv0, *args.args], args, replay)
    if args.record or replay is not None:
        return _recorded(machine, binary, [argv0, *args.args], args, replay)
    try:
        sys.stdout.flush()
        result = machine.run(binary, [argv0, *args.args])
    except (ElfError, PublishError) as error:
        raise CommandError(str(error)) from None
    if args.stats and args.json:
        print(json.dumps({"instructions": result.instructions, "wall_s": round(result.wall_s, 6),
                          "mips": round(result.mips, 3), "status": result.status, "reason": result.reason,
                          "native_instructions": result.native_instructions,
                          "native_entries": result.native_entries}),
              file=sys.stderr)
    elif args.stats:
        share = result.native_instructions / result.instructions if result.instructions else 0.0
        print(f"ncpu: {result.instructions} instructions in {result.wall_s:.3f} s "
              f"({result.mips:.2f} MIPS), {share:.1%} in native code, entered {result.native_entries} times",
              file=sys.stderr)
    return result.status


def _port_pair(spec: str) -> tuple[int, int]:
    host, sep, guest = spec.partition(":")
    try:
        pair = int(host), int(guest)
    except ValueError:
        pair = (0, 0)
    if not sep or not all(0 < port < 65536 for port in pair):
        raise CommandError(f"--publish {spec}: expected HOSTPORT:GUESTPORT, two TCP ports")
    return pair


MAX_MEMORY = 1 << 40       # beyond any guest: the 4 GiB guest space per process, 256 processes


def parse_size(text: str) -> int:
    """--memory: bytes, or a number with K, M, G (KiB, MiB, GiB) or T; at least one page."""
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    t = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = t[-1:] if t[-1:] in units and t[-1:] else ""
    number = t[:-1] if unit else t
    if not number.isdigit() or len(number) > 15:
        raise CommandError(f"--memory {text}: not a size (e.g. 512M, 4G)")
    size = int(number) * units[unit]
    if not 4096 <= size <= MAX_MEMORY:
        raise CommandError(f"--memory {text}: must be between 4K and 1T")
    return size


def _load_replay(args, binary: str, machine):
    from ncpu.debug import record
    try:
        document = record.load(args.replay)
    except (OSError, ValueError) as error:
        raise CommandError(f"--replay {args.replay}: {getattr(error, 'strerror', None) or error}") from None
    if document["binary_sha256"] != record.sha256_of(binary):
        raise CommandError(f"--replay {args.replay}: recorded with a different binary than {binary}")
    machine.seed, machine.host_time = document["seed"], document["host_time"]
    return document


def _recorded(machine, binary: str, argv: list[str], args, replay) -> int:
    from ncpu.arm64.linux import ElfError
    from ncpu.debug import record
    from ncpu.debug.session import recorded_run

    if replay is not None and replay["argv"][1:] != argv[1:]:
        raise CommandError(f"--replay {args.replay}: recorded with arguments {replay['argv'][1:]}")
    log = record.Log(replay["events"] if replay is not None else None)
    try:
        sys.stdout.flush()
        result = recorded_run(machine, binary, argv, log, replay=replay is not None, on_message=_message)
    except ElfError as error:
        raise CommandError(str(error)) from None
    except record.ReplayDiverged as error:
        raise CommandError(f"--replay {args.replay}: {error}") from None
    if replay is None:
        record.save(args.record, binary=binary, argv=argv, seed=machine.seed, host_time=machine.host_time,
                    log=log, instructions=result.instructions, status=result.status)
    elif result.instructions != replay["instructions"]:
        raise CommandError(f"--replay {args.replay}: ran {result.instructions} instructions, "
                           f"the recording {replay['instructions']}")
    if args.stats:
        print(f"ncpu: {result.instructions} instructions", file=sys.stderr)
    return result.status


def _gdb(machine, binary: str, argv: list[str], args, replay=None) -> int:
    from ncpu.arm64.linux import ElfError
    from ncpu.debug.gdbstub import listen
    from ncpu.debug.session import gdb_run

    if not 0 < args.gdb_port < 65536:
        raise CommandError(f"-g {args.gdb_port}: not a TCP port")
    try:
        server = listen(args.gdb_port)
    except OSError as error:
        raise CommandError(f"-g {args.gdb_port}: cannot listen on 127.0.0.1:{args.gdb_port}: "
                           f"{error.strerror or error}") from None
    try:
        sys.stdout.flush()
        log = None
        if replay is not None:
            from ncpu.debug import record
            log = record.Log(replay["events"])
        status, how = gdb_run(machine, binary, argv, server, on_message=_message,
                              run_on_drop=args.gdb_run_on_drop, replay_log=log)
    except ElfError as error:
        raise CommandError(str(error)) from None
    if how == "dropped" and not args.gdb_run_on_drop and status == 137:
        _message("gdb connection dropped: guest ended")
    return status


def _message(text: str) -> None:
    print(f"ncpu: {text}", file=sys.stderr, flush=True)
