"""`ncpu run`: run a program on one of the engines and show the final state."""

from __future__ import annotations

import argparse
import json
import re
import time

from ncpu.cli import CommandError
from ncpu.commands._display import add_display_options, run_displayed
from ncpu.commands._cluster import add_cluster_arguments, shard_runner
from ncpu.commands._load import assemble_file, words_from_binary
from ncpu.isa.opcodes import NUM_REGISTERS
from ncpu.machine.program_file import DEFAULT_MAX_STEPS, ProgramFileError, load_program_file
from ncpu.isa.semantics import wrap
from ncpu.isa.assembler import parse_integer, shorten
from ncpu.machine.state import DEFAULT_MEM_SIZE, MAX_MEM_SIZE, MAX_STEPS, MachineState

MODES = ("reference", "compute", "fast", "neural")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run an nCPU program",
        description=(
            "Assemble and run FILE (.asm text, or .bin words from `ncpu asm`). "
            "Header comments in the file (@init, @mem-size, @mem, @max-steps) set the "
            "initial state; the options below override them. System calls (SYS, docs/isa.md): "
            "exit, write to stdout/stderr and read from stdin are serviced; others return -1."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="program: .asm source or .bin words")
    parser.add_argument("--mode", choices=MODES, default="compute",
                        help="engine: reference (readable Python), compute (compiled; the fastest), "
                             "neural (every operation through the neural ALU's circuits), "
                             "fast (torch tensors, made for running thousands of machines at once "
                             "as `ncpu bench` does; one machine runs only a few thousand steps/s); "
                             "default: compute")
    parser.add_argument("--max-steps", type=_bounded(MAX_STEPS), metavar="N",
                        help=f"instruction budget (default: the file's @max-steps or {DEFAULT_MAX_STEPS:,}; at most 2**62)")
    parser.add_argument("--reg", action="append", default=[], metavar="RN=VALUE",
                        help="initial register value, e.g. --reg R0=5 (repeatable)")
    parser.add_argument("--mem-size", type=_bounded(MAX_MEM_SIZE), metavar="W",
                        help=f"data memory size in words (default: the file's @mem-size or {DEFAULT_MEM_SIZE}; "
                             f"at most {MAX_MEM_SIZE:,})")
    parser.add_argument("--json", action="store_true", help="print exactly one JSON object")
    parser.add_argument("--trace", action="store_true",
                        help="print each instruction (step, pc, label+offset, disassembly, what it changed) "
                             "to stderr, from the reference semantics (ncpu debug asm goes further)")
    add_display_options(parser, _positive)
    parser.add_argument("--batch", metavar="STATES.jsonl",
                        help="run once per line of STATES.jsonl ('-': stdin), each line a JSON object of "
                             "overrides such as {\"R0\": 5, \"mem\": {\"16\": [1, 2]}}; print one JSON "
                             "object per line, in input order (see docs/cluster.md)")
    parser.add_argument("--batch-size", type=_positive, default=1024, metavar="B",
                        help="machines per engine batch and per shard (default 1024)")
    add_cluster_arguments(parser)  # --batch shards over workers
    parser.set_defaults(func=run)


def _bounded(limit: int):
    """argparse type: an integer in 1..limit (0x/0b allowed)."""
    def parse(text: str) -> int:
        value = parse_integer(text.strip())
        if value is None or value < 1:
            raise argparse.ArgumentTypeError(f"expected a positive integer, got '{shorten(text)}'")
        if value > limit:
            raise argparse.ArgumentTypeError(f"{value} is above the limit of {limit:,}")
        return value
    return parse


_positive = _bounded(MAX_STEPS)     # counts with no tighter limit of their own (--display-every, --batch-size)


def parse_register_assignment(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*[Rr]([0-9]{1,3})\s*=\s*([+-]?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+))\s*", text)
    value = parse_integer(match.group(2)) if match else None
    if not match or int(match.group(1)) >= NUM_REGISTERS or value is None:
        raise CommandError(f"--reg expects RN=VALUE with N in 0..{NUM_REGISTERS - 1} and a 32-bit VALUE, "
                           f"got '{shorten(text)}'")
    if not -(1 << 31) <= value < (1 << 32):
        raise CommandError(f"--reg value {value} does not fit 32 bits")
    return int(match.group(1)), wrap(value)


def load(args: argparse.Namespace) -> tuple[list[int], MachineState, int]:
    """The program words, the initial state and the step budget."""
    if args.file.endswith(".bin"):
        words, state, max_steps = words_from_binary(args.file), MachineState(), DEFAULT_MAX_STEPS
    else:
        words, state, max_steps = _load_source(args.file)
    if args.mem_size:
        memory = state.memory[: args.mem_size]
        state.memory = memory + [0] * (args.mem_size - len(memory))
    for assignment in args.reg:
        index, value = parse_register_assignment(assignment)
        state.registers[index] = value
    return words, state, args.max_steps or max_steps


def _load_source(path: str) -> tuple[list[int], MachineState, int]:
    assemble_file(path)  # assembler errors first, reported as file:line:col
    try:
        loaded = load_program_file(path)
    except ProgramFileError as error:
        raise CommandError(str(error)) from None
    return loaded.program.words, loaded.fresh_state(), loaded.max_steps


# Engines built on torch: one machine is a chain of tiny ops, for which
# waking torch's worker threads costs more than it saves.
TORCH_ENGINES = ("fast", "neural")


def run(args: argparse.Namespace) -> int:
    from ncpu.commands._startup import heavy_imports
    from ncpu.machine.engines import EngineUnavailable, get_engine, warm_up

    words, state, max_steps = load(args)
    started = time.perf_counter()
    try:
        with heavy_imports():
            engine = get_engine(args.mode)
    except EngineUnavailable as error:
        raise CommandError(str(error)) from None
    if args.batch:
        return run_batch_file(args, words, state, max_steps)
    if args.trace:
        _trace(args.file, words, state, max_steps)
    if args.workers is not None or args.cluster != "local" or args.checkpoint:
        raise CommandError("--workers, --cluster and --checkpoint shard a --batch run; give --batch STATES.jsonl")
    usable = ()       # the neural engine loads weights: a bad file is the user's, one line
    if args.mode == "neural":
        from ncpu.commands._torch import weights_errors

        usable = weights_errors()
    if args.mode in TORCH_ENGINES:
        import torch

        torch.set_num_threads(1)
    try:
        warm_up(engine)  # imports, compiling, building circuits: reported as start-up
    except usable as error:
        raise CommandError(str(error)) from None
    startup = time.perf_counter() - started
    started = time.perf_counter()
    console = _console(args.json)
    serviced = ServicedEngine(engine, console)
    try:
        if args.display or args.display_every:
            final = run_displayed(args, serviced, words, state, max_steps)
        else:
            final = serviced.run(words, state, max_steps)
    except usable as error:
        raise CommandError(str(error)) from None
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps(result_object(final, args.mode, startup, seconds) | _console_object(console)))
    else:
        print(summary(args.file, final, args.mode, seconds, startup, console.exit_status))
    return 0


class ServicedEngine:
    """An engine whose runs service system calls through `console`."""

    def __init__(self, engine, console):
        self.engine, self.console = engine, console

    def run(self, words, state: MachineState, max_steps: int) -> MachineState:
        from ncpu.machine.traps import run_serviced

        return run_serviced(self.engine, words, state, max_steps, self.console)


def _console(quiet: bool):
    """The bare machine's system calls: stdin is read only when the program
    reads; written bytes go straight to our stdout/stderr unless `quiet`
    (--json reports them in its object instead)."""
    import sys

    from ncpu.machine.traps import Console

    def echo(fd: int, data: bytes) -> None:
        stream = sys.stdout if fd == 1 else sys.stderr
        stream.flush()
        stream.buffer.write(data)
        stream.buffer.flush()

    return Console(stdin=sys.stdin.buffer, echo=None if quiet else echo)


def _console_object(console) -> dict:
    if not console.calls:
        return {}
    return {"exit_status": console.exit_status, "stdout": console.stdout.decode("latin-1"),
            "stderr": console.stderr.decode("latin-1"), "syscalls": console.calls}


def run_batch_file(args: argparse.Namespace, words: list[int], base: MachineState, max_steps: int) -> int:
    """`--batch`: every state of the file, in shards, one JSON line each."""
    import sys

    from tqdm import tqdm

    from ncpu.machine.sweep import SweepError, merge_sweep, parse_states, sweep_job

    try:
        with (open(args.batch) if args.batch != "-" else sys.stdin) as lines:
            states = parse_states(lines, base)
    except OSError as error:
        raise CommandError(f"--batch {args.batch}: {error.strerror or error}") from None
    except SweepError as error:
        raise CommandError(f"--batch {args.batch}: {error}") from None
    job = sweep_job(words, states, args.mode, max_steps, args.batch_size)
    with tqdm(total=len(states), desc="run", unit="machine", file=sys.stderr, disable=not sys.stderr.isatty()) as bar:
        results = shard_runner(args)(job, progress=lambda index: bar.update(job.shards[index][3].batch_size))
    for final in merge_sweep(results):
        print(json.dumps(result_object(final, args.mode)))
    return 0


def result_object(state: MachineState, mode: str, startup_seconds: float | None = None,
                  run_seconds: float | None = None) -> dict:
    timing = {} if run_seconds is None else {"startup_seconds": startup_seconds, "run_seconds": run_seconds}
    return {
        "registers": {f"R{i}": value for i, value in enumerate(state.registers)},
        "flags": state.flags,
        "pc": state.pc,
        "sp": state.sp,
        "steps": state.steps,
        "halted": state.halted,
        **({"trapped": True} if state.trapped else {}),  # a --batch machine stopped on a SYS
        "mode": mode,
        **timing,
    }


def summary(path: str, state: MachineState, mode: str, seconds: float, startup: float | None = None,
            exit_status: int | None = None) -> str:
    """The final state, with the run's time and rate; start-up (imports,
    compiling, building circuits) apart, as it is paid once per process."""
    outcome = "halted" if state.halted else "stopped: step budget exhausted"
    if exit_status is not None:
        outcome = f"exited with status {exit_status}"
    rate = f", {state.steps / seconds:,.0f} instructions/s" if seconds > 0 and state.steps else ""
    before = "" if startup is None else f"; plus start-up {startup:.2f} s"
    registers = "  ".join(f"R{i}={value}" for i, value in enumerate(state.registers))
    flags = " ".join(f"{name}={int(value)}" for name, value in state.flags.items())
    return (
        f"{path}: {outcome} after {state.steps:,} steps ({mode} mode: run {_seconds(seconds)}{rate}{before})\n"
        f"  {registers}\n"
        f"  flags {flags}   pc={state.pc}   sp={state.sp}"
    )


def _seconds(value: float) -> str:
    return f"{value * 1e3:.2f} ms" if value < 1 else f"{value:.3f} s"


def _trace(path: str, words: list[int], state: MachineState, max_steps: int) -> None:
    import sys

    from ncpu.debug.ncpu_target import NcpuTarget, format_trace
    from ncpu.isa.assembler import Program

    labels = load_program_file(path).program.labels if path.endswith(".asm") else {}
    target = NcpuTarget(Program(words, labels), state, max_steps)
    while target.trace(10_000, lambda rec: print(format_trace(rec), file=sys.stderr)).kind == "step":
        pass
