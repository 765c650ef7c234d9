"""The trace-based tools of `ncpu debug` (trace, profile, coverage, sanitize, taint, reverse, ct, diff,
fuzz): parse, call, print."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

from ncpu.cli import CommandError

DEFAULT_STEPS = 10**9


def _common(parser, *, stdin: bool = True) -> None:
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--max-steps", type=int, default=DEFAULT_STEPS, metavar="N",
                        help=f"instruction budget per run (default {DEFAULT_STEPS:,})")
    if stdin:
        parser.add_argument("--stdin", metavar="FILE", help="file the guest reads as stdin (default: empty)")
    parser.add_argument("binary", metavar="BINARY", help="static AArch64 Linux executable")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="its arguments (after --)")


def register(tools) -> None:
    p = tools.add_parser("trace", help="instruction trace: disassembly, registers written, memory accessed",
                         description="Run BINARY and print each instruction it runs: count, pc, symbol+offset, "
                                     "word, disassembly, registers written (new values), memory accessed.")
    p.add_argument("--function", metavar="NAME", help="only instructions inside this function")
    p.add_argument("--range", metavar="START:END", help="only pcs in [START, END) (hex or decimal)")
    p.add_argument("--from", dest="first", type=int, default=0, metavar="N", help="from instruction N of the run")
    p.add_argument("--to", dest="last", type=int, default=None, metavar="N", help="up to instruction N (excluded)")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="print at most N instructions")
    p.add_argument("-o", dest="output", metavar="FILE", help="write the trace to FILE (default stdout)")
    p.add_argument("-f", "--follow-children", action="store_true",
                   help="trace the processes it forks and execs too, each line with [pid N] (default: the "
                        "first process only)")
    _common(p)
    p.set_defaults(func=run_trace)

    p = tools.add_parser("profile", help="instructions per function (flat, call graph), hottest instructions",
                         description="Run BINARY and count its instructions per function (ELF symbols): self "
                                     "and inclusive counts, calls between functions (from BL/BLR and RET), the "
                                     "hottest instructions. --format collapsed prints stacks for flame graphs.")
    p.add_argument("--format", choices=("flat", "collapsed"), default="flat")
    p.add_argument("--top", type=int, default=15, metavar="N", help="rows of each table (default 15)")
    _common(p)
    p.set_defaults(func=run_profile)

    p = tools.add_parser("coverage", help="basic-block and line coverage, as lcov .info",
                         description="Run BINARY (built with -g for line coverage) and report the basic blocks "
                                     "and source lines it ran. -o writes an lcov tracefile (genhtml reads it).")
    p.add_argument("-o", dest="output", metavar="FILE", help="write lcov .info to FILE")
    _common(p)
    p.set_defaults(func=run_coverage)

    p = tools.add_parser("ct", help="constant-time check over several secret inputs",
                         description="Run BINARY once per secret input (given on stdin) and compare the traces "
                                     "of pcs, load/store addresses and division operands: identical (constant "
                                     "time for these inputs) or the first divergence and its kind.")
    p.add_argument("--secret", action="append", default=[], metavar="FILE", help="a secret input (repeatable)")
    p.add_argument("--random", type=int, default=0, metavar="N", help="N random secrets ...")
    p.add_argument("--size", type=int, default=16, metavar="K", help="... of K bytes (default 16)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random secrets")
    p.add_argument("--function", metavar="NAME", help="compare only instructions inside this function")
    _common(p, stdin=False)
    p.set_defaults(func=run_ct)

    p = tools.add_parser("diff", help="two runs (other stdin, arguments or seed): the first divergence",
                         description="Run BINARY twice and report the first instruction after which the register "
                                     "state differs, and the first where the control flow differs.")
    p.add_argument("--stdin", action="append", default=[], metavar="FILE",
                   help="stdin of run A, then of run B (one: both; none: empty)")
    p.add_argument("--seed", action="append", type=int, default=[], metavar="N", help="machine seed of A, then B")
    p.add_argument("--args-b", metavar="ARGS", help="run B's arguments (space separated) instead of ARGS")
    _common(p, stdin=False)
    p.set_defaults(func=run_diff)

    p = tools.add_parser("sanitize", help="heap errors: overflow, use after free, double/invalid free, leaks",
                         description="Run a static glibc BINARY with malloc/calloc/realloc/free interposed at "
                                     "their symbols (red zones around each block, shadow state of the heap) "
                                     "and report heap-buffer-overflow, use-after-free, double and invalid free, "
                                     "reads of uninitialised heap bytes and leaks, with allocation and free sites.")
    _common(p)
    p.set_defaults(func=run_sanitize)

    p = tools.add_parser("taint", help="forward data flow from input bytes to branches, addresses, syscalls",
                         description="Follow chosen input bytes (stdin as read(2) delivers it, argv strings) "
                                     "through registers and memory; report the branches, load/store addresses "
                                     "and system calls that depend on them, with the input bytes they depend on.")
    p.add_argument("--bytes", metavar="A:B", help="only stdin offsets in [A, B) are sources (default all)")
    p.add_argument("--argv", type=int, action="append", default=[], metavar="K", help="argv[K] is a source too")
    _common(p)
    p.set_defaults(func=run_taint)

    p = tools.add_parser("reverse", help="backward data flow: the instructions and inputs a value came from",
                         description="Take a register (or memory bytes) before the last run of an instruction "
                                     "(--at-pc) or before instruction N (--at), and walk the trace back to the "
                                     "instructions and input bytes that produced it.")
    p.add_argument("--register", default="x0", metavar="REG", help="register (x0..x30, sp; default x0)")
    p.add_argument("--memory", metavar="ADDR:SIZE", help="memory bytes instead of a register")
    p.add_argument("--at-pc", metavar="ADDR|SYMBOL", help="the last time this pc ran (default: the end)")
    p.add_argument("--at", type=int, metavar="N", help="before instruction N of the first thread")
    _common(p)
    p.set_defaults(func=run_reverse)

    p = tools.add_parser("asm", help="debug an nCPU program: breakpoints, watchpoints, reverse, trace",
                         description="Run an nCPU program (.asm or program file) on the reference engine and "
                                     "apply each -ex command in order: break LABEL|PC, watch ADDR (a memory "
                                     "word, stops after a write), continue, step [N], reverse-step [N], "
                                     "reverse-continue, trace N (N instructions with disassembly), regs, "
                                     "mem ADDR [N].")
    p.add_argument("file", metavar="FILE", help="program: .asm source")
    p.add_argument("-ex", dest="commands", action="append", default=[], metavar="CMD", help="a command")
    p.add_argument("--reg", action="append", default=[], metavar="RN=VALUE", help="initial register value")
    p.add_argument("--max-steps", type=int, default=10**7, metavar="N", help="instruction budget")
    p.add_argument("--json", action="store_true", help="one JSON object per command")
    p.set_defaults(func=run_asm)

    p = tools.add_parser("fuzz", help="coverage-guided fuzzing of stdin",
                         description="Mutate stdin inputs, keep those that reach new edges (pc pairs from the "
                                     "trace), match compared values (cmp operands found in the input), report "
                                     "crashes deduplicated by signal, pc and call stack, with minimised inputs.")
    p.add_argument("--executions", type=int, default=2000, metavar="N", help="runs to make (default 2000)")
    p.add_argument("--seed", type=int, default=0, help="random seed (the campaign is reproducible)")
    p.add_argument("--corpus", metavar="DIR", help="seed inputs from DIR/*; new ones to DIR/queue, DIR/crashes")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="parallel machines (default 1)")
    p.add_argument("--max-len", type=int, default=256, metavar="N", help="largest input (default 256)")
    p.add_argument("--stop-on-crash", action="store_true", help="end at the first crash")
    _common(p, stdin=False)
    p.set_defaults(func=run_fuzz, max_steps=10**7)


# --- helpers ------------------------------------------------------------------------------------------

def _inputs(args) -> tuple[str, list[str]]:
    if not os.path.isfile(args.binary):
        raise CommandError(f"{args.binary}: no such file")
    guest = args.args[1:] if args.args[:1] == ["--"] else args.args
    return args.binary, [args.binary, *guest]


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as error:
        raise CommandError(f"{path}: {error.strerror}") from None


def _program(binary: str):
    from elftools.common.exceptions import ELFError

    from ncpu.debug.symbols import Program
    try:
        return Program.load(binary)
    except (ELFError, OSError) as error:
        raise CommandError(f"{binary}: not an ELF file ({error})") from None


def _run(binary, argv, **kwargs):
    from ncpu.arm64.linux import ElfError
    from ncpu.debug.tracing import run_traced
    try:
        return run_traced(binary, argv, **kwargs)
    except ElfError as error:
        raise CommandError(str(error)) from None


def _echo(result) -> None:
    """The guest's own output, after the report's data is gathered."""
    sys.stdout.buffer.write(result.stdout)
    sys.stdout.flush()
    sys.stderr.buffer.write(result.stderr)


def _int(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise CommandError(f"{text}: not a number") from None


# --- tools ---------------------------------------------------------------------------------------------

def run_trace(args) -> int:
    from ncpu.debug.tracelog import Filter, TraceLog, format_record

    binary, argv = _inputs(args)
    program = _program(binary)
    flt = Filter(first=args.first, last=args.last)
    if args.function:
        try:
            flt.start, flt.end = program.function(args.function)
        except KeyError:
            raise CommandError(f"--function {args.function}: no such function in {binary}") from None
    if args.range:
        start, _, end = args.range.partition(":")
        flt.start, flt.end = _int(start), _int(end)
    try:
        out = open(args.output, "w") if args.output else sys.stdout
    except OSError as error:
        raise CommandError(f"-o {args.output}: {error.strerror}") from None

    def emit(rec):
        out.write((json.dumps(rec) if args.json else format_record(rec, args.follow_children)) + "\n")
    log = TraceLog(program, flt, emit, args.limit)
    stdin = _read(args.stdin) if args.stdin else b""
    result = _run(binary, argv, stdin=stdin, on_rows=log.add, max_steps=args.max_steps,
                  follow_children=args.follow_children, on_image=log.image)
    log.finish(result.final or {})
    if args.output:
        out.close()
    else:
        out.flush()
    sys.stderr.buffer.write(result.stdout + result.stderr)
    return result.status


def run_profile(args) -> int:
    from ncpu.debug.profile import Profile

    binary, argv = _inputs(args)
    prof = Profile(_program(binary))
    stdin = _read(args.stdin) if args.stdin else b""
    result = _run(binary, argv, stdin=stdin, on_rows=lambda tid, rows: prof.add(rows), regs=False,
                  max_steps=args.max_steps)
    if args.format == "collapsed":
        print("\n".join(prof.collapsed()))
        return 0
    report = {"instructions": prof.total, "status": result.status, "functions": prof.flat()[:args.top],
              "calls": prof.calls()[:args.top], "hottest": prof.hottest(args.top)}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{prof.total:,} instructions (exit status {result.status})\n")
    print(f"{'self':>12} {'%':>6} {'inclusive':>12}  function")
    for r in report["functions"]:
        print(f"{r['self']:>12,} {r['percent']:>6.2f} {r['inclusive']:>12,}  {r['function']}")
    print(f"\n{'calls':>12}  caller -> callee")
    for r in report["calls"]:
        print(f"{r['calls']:>12,}  {r['caller']} -> {r['callee']}")
    print(f"\n{'count':>12}  hottest instructions")
    for r in report["hottest"]:
        print(f"{r['count']:>12,}  {r['pc']:#x} {r['where']:<24} {r['instruction']}")
    return 0


def run_coverage(args) -> int:
    from ncpu.debug.coverage import Coverage

    binary, argv = _inputs(args)
    cov = Coverage(_program(binary))
    stdin = _read(args.stdin) if args.stdin else b""
    result = _run(binary, argv, stdin=stdin, on_rows=lambda tid, rows: cov.add(rows), regs=False,
                  max_steps=args.max_steps)
    if args.output:
        try:
            with open(args.output, "w") as f:
                f.write(cov.lcov(os.path.basename(binary)))
        except OSError as error:
            raise CommandError(f"-o {args.output}: {error.strerror}") from None
    summary = cov.summary() | {"status": result.status}
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"{summary['instructions']:,} instructions, {summary['distinct_pcs']:,} distinct pcs, "
          f"{summary['blocks_hit']:,} basic blocks hit ({summary['block_entries']:,} entries)")
    if not summary["files"]:
        print("no line table (build with -g for line coverage)")
    for name, f in summary["files"].items():
        print(f"{name}: {f['hit']}/{f['found']} lines ({100.0 * f['hit'] / max(f['found'], 1):.1f}%)")
    return 0


def run_ct(args) -> int:
    from ncpu.debug import ct

    binary, argv = _inputs(args)
    _program(binary)
    secrets = [_read(path) for path in args.secret]
    rng = random.Random(args.seed)
    secrets += [bytes(rng.randrange(256) for _ in range(args.size)) for _ in range(args.random)]
    if len(secrets) < 2:
        raise CommandError("ct needs at least two secrets (--secret FILE ..., or --random N)")
    try:
        report = ct.check(binary, argv, secrets, function=args.function, max_steps=args.max_steps)
    except KeyError:
        raise CommandError(f"--function {args.function}: no such function in {binary}") from None
    print(json.dumps(report) if args.json else ct.format_report(report))
    return 0 if report["constant_time"] else 1


def run_diff(args) -> int:
    from ncpu.debug import difference

    binary, argv = _inputs(args)
    _program(binary)
    if len(args.stdin) > 2 or len(args.seed) > 2:
        raise CommandError("diff compares two runs: --stdin and --seed at most twice")
    stdins = [_read(p) for p in args.stdin] or [b""]
    seeds = args.seed or [0]
    argv_b = [binary, *args.args_b.split()] if args.args_b is not None else argv
    runs = [(argv, stdins[0], seeds[0]), (argv_b, stdins[-1], seeds[-1])]
    report = difference.compare(binary, runs, max_steps=args.max_steps)
    print(json.dumps(report) if args.json else difference.format_report(report))
    return 0


def run_sanitize(args) -> int:
    from ncpu.debug import sanitize

    binary, argv = _inputs(args)
    _program(binary)
    stdin = _read(args.stdin) if args.stdin else b""
    try:
        report = sanitize.sanitize(binary, argv, stdin=stdin, max_steps=args.max_steps)
    except ValueError as error:
        raise CommandError(str(error)) from None
    if args.json:
        print(json.dumps(report))
    else:
        sys.stdout.write(report["stdout"])
        sys.stdout.flush()                     # the guest's output, then the report, wherever they go
        print(sanitize.format_report(report), file=sys.stderr)
    return 1 if report["errors"] or report["leaks"] else 0


def run_taint(args) -> int:
    from ncpu.debug import taint

    binary, argv = _inputs(args)
    _program(binary)
    stdin = _read(args.stdin) if args.stdin else b""
    span = None
    if args.bytes:
        a, _, b = args.bytes.partition(":")
        span = (_int(a), _int(b))
    report = taint.run(binary, argv, stdin=stdin, stdin_range=span, argv_indices=args.argv,
                       max_steps=args.max_steps)
    print(json.dumps(report) if args.json else taint.format_report(report))
    return 0


def run_reverse(args) -> int:
    from ncpu.debug import reverse

    binary, argv = _inputs(args)
    program = _program(binary)
    stdin = _read(args.stdin) if args.stdin else b""
    at_pc = None
    if args.at_pc:
        at_pc = program.aliases.get(args.at_pc)
        if at_pc is None:
            at_pc = _int(args.at_pc)
    memory = None
    if args.memory:
        a, _, n = args.memory.partition(":")
        memory = (_int(a), _int(n or "8"))
    reg = args.register.lower()
    if reg.startswith("w"):
        reg = "x" + reg[1:]
    if memory is None and reg not in {f"x{i}" for i in range(31)} | {"sp"}:
        raise CommandError(f"--register {args.register}: not a register (x0..x30, sp)")
    try:
        report = reverse.slice_back(binary, argv, stdin=stdin, register=reg, memory=memory, at_pc=at_pc,
                                    at=args.at, max_steps=args.max_steps)
    except ValueError as error:
        raise CommandError(str(error)) from None
    print(json.dumps(report) if args.json else reverse.format_report(report))
    return 0


def run_fuzz(args) -> int:
    from tqdm import tqdm

    from ncpu.debug import fuzz

    binary, argv = _inputs(args)
    program = _program(binary)
    seeds = []
    if args.corpus and os.path.isdir(args.corpus):
        seeds = [_read(os.path.join(args.corpus, n)) for n in sorted(os.listdir(args.corpus))
                 if os.path.isfile(os.path.join(args.corpus, n))]
    with tqdm(total=args.executions, desc="fuzz", unit="run", leave=False, disable=None) as bar:
        state = fuzz.fuzz(binary, argv, seeds=seeds, executions=args.executions, seed=args.seed,
                          max_steps=args.max_steps, max_len=args.max_len, jobs=args.jobs,
                          corpus_dir=args.corpus, stop_on_crash=args.stop_on_crash, progress=bar.update)
    report = fuzz.report(state, program)
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{report['executions']} executions, {report['corpus']} inputs in the corpus, "
              f"{report['edges']} edges, {len(report['crashes'])} distinct crashes")
        for c in report["crashes"]:
            print(f"crash: signal {c['signal']} at {c['pc']:#x} {c['where']} (stack {c['stack']}), "
                  f"found at execution {c['found_at']}, minimised input {c['minimized']}")
    return 1 if report["crashes"] else 0


def run_asm(args) -> int:
    from ncpu.debug.ncpu_target import NcpuTarget, format_trace
    from ncpu.machine.program_file import ProgramFileError, load_program_file

    try:
        pf = load_program_file(args.file)
    except (OSError, ProgramFileError) as error:
        raise CommandError(str(error)) from None
    except Exception as error:                                 # assembler errors name line and column
        raise CommandError(f"{args.file}: {error}") from None
    state = pf.initial_state.copy()
    for item in args.reg:
        name, _, value = item.partition("=")
        if not (name.upper().startswith("R") and name[1:].isdigit() and int(name[1:]) < len(state.registers)):
            raise CommandError(f"--reg {item}: expected RN=VALUE")
        state.registers[int(name[1:])] = _int(value)
    t = NcpuTarget(pf.program, state, args.max_steps)

    def show(stop) -> dict:
        rec = {"stop": stop.kind, "steps": stop.steps, "pc": stop.pc, "where": t.where(stop.pc),
               "next": t.text(stop.pc)}
        if stop.kind == "watch":
            rec |= {"address": stop.address, "old": stop.old, "new": stop.new}
        return rec

    def say(rec: dict, text: str) -> None:
        print(json.dumps(rec) if args.json else text)

    for command in args.commands:
        verb, *rest = command.split()
        try:
            if verb in ("break", "b"):
                t.breakpoints.add(t.address_of(rest[0]))
                say({"break": t.address_of(rest[0])}, f"breakpoint at {t.address_of(rest[0])} ({rest[0]})")
                continue
            if verb == "watch":
                addr = _int(rest[0])
                t.watchpoints.add(addr)
                say({"watch": addr}, f"watchpoint on word {addr}")
                continue
            n = int(rest[0]) if rest and verb not in ("mem", "x") else 1
        except (IndexError, ValueError):
            raise CommandError(f"-ex {command!r}: bad or missing argument") from None
        if verb in ("continue", "c"):
            stop = t.resume()
        elif verb in ("step", "s", "stepi", "si"):
            stop = t.step(n)
        elif verb in ("reverse-step", "rs", "reverse-stepi"):
            stop = t.reverse_step(n)
        elif verb in ("reverse-continue", "rc"):
            stop = t.reverse_continue()
        elif verb == "trace":
            stop = t.trace(n, lambda rec: say(rec, format_trace(rec)))
        elif verb == "regs":
            s = t.state
            rec = {f"R{k}": v for k, v in enumerate(s.registers)} | {"pc": s.pc, "sp": s.sp, "steps": s.steps,
                                                                      "flags": s.flags}
            say(rec, " ".join(f"R{k}={v}" for k, v in enumerate(s.registers)) +
                f" pc={s.pc} sp={s.sp} steps={s.steps} flags="
                + "".join(f for f, on in s.flags.items() if on))
            continue
        elif verb in ("mem", "x"):
            try:
                addr, count = _int(rest[0]), int(rest[1]) if len(rest) > 1 else 1
            except (IndexError, ValueError):
                raise CommandError(f"-ex {command!r}: expected mem ADDR [N]") from None
            words = t.state.memory[addr:addr + count]
            say({"address": addr, "words": words}, f"[{addr}] " + " ".join(map(str, words)))
            continue
        else:
            raise CommandError(f"-ex {command!r}: unknown command")
        rec = show(stop)
        text = f"{stop.kind} at step {stop.steps}, pc {stop.pc} ({rec['where']}): {rec['next']}"
        if stop.kind == "watch":
            text += f"; word {stop.address}: {stop.old} -> {stop.new}"
        say(rec, text)
    return 0
