"""`ncpu run`: run a program on one of the engines and show the final state."""

from __future__ import annotations

import argparse
import json
import re
import time

from ncpu.cli import CommandError
from ncpu.commands._load import assemble_file, words_from_binary
from ncpu.isa.opcodes import NUM_REGISTERS
from ncpu.machine.program_file import DEFAULT_MAX_STEPS, ProgramFileError, load_program_file
from ncpu.isa.semantics import wrap
from ncpu.machine.state import DEFAULT_MEM_SIZE, MachineState

MODES = ("reference", "compute", "fast", "neural")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run an nCPU program",
        description=(
            "Assemble and run FILE (.asm text, or .bin words from `ncpu asm`). "
            "Header comments in the file (@init, @mem-size, @mem, @max-steps) set the "
            "initial state; the options below override them."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="program: .asm source or .bin words")
    parser.add_argument("--mode", choices=MODES, default="compute",
                        help="engine: reference (readable Python), compute (compiled; the fastest), "
                             "neural (every operation through the neural ALU's circuits), "
                             "fast (torch tensors, made for running thousands of machines at once "
                             "as `ncpu bench` does; one machine runs only a few thousand steps/s); "
                             "default: compute")
    parser.add_argument("--max-steps", type=_positive, metavar="N",
                        help=f"instruction budget (default: the file's @max-steps or {DEFAULT_MAX_STEPS:,})")
    parser.add_argument("--reg", action="append", default=[], metavar="RN=VALUE",
                        help="initial register value, e.g. --reg R0=5 (repeatable)")
    parser.add_argument("--mem-size", type=_positive, metavar="W",
                        help=f"data memory size in words (default: the file's @mem-size or {DEFAULT_MEM_SIZE})")
    parser.add_argument("--json", action="store_true", help="print exactly one JSON object")
    parser.set_defaults(func=run)


def _positive(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got '{text}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got '{text}'")
    return value


def parse_register_assignment(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*[Rr]([0-9]+)\s*=\s*([+-]?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+))\s*", text)
    if not match or int(match.group(1)) >= NUM_REGISTERS:
        raise CommandError(f"--reg expects RN=VALUE with N in 0..{NUM_REGISTERS - 1}, got '{text}'")
    value = int(match.group(2), 0) if not re.match(r"[+-]?0[0-9]", match.group(2)) else int(match.group(2), 10)
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
    from ncpu.machine.engines import EngineUnavailable, get_engine, warm_up

    words, state, max_steps = load(args)
    started = time.perf_counter()
    try:
        engine = get_engine(args.mode)
    except EngineUnavailable as error:
        raise CommandError(str(error)) from None
    if args.mode in TORCH_ENGINES:
        import torch

        torch.set_num_threads(1)
    warm_up(engine)  # imports, compiling, building circuits: reported as start-up
    startup = time.perf_counter() - started
    started = time.perf_counter()
    final = engine.run(words, state, max_steps)
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps(result_object(final, args.mode, startup, seconds)))
    else:
        print(summary(args.file, final, args.mode, seconds, startup))
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
        "mode": mode,
        **timing,
    }


def summary(path: str, state: MachineState, mode: str, seconds: float, startup: float | None = None) -> str:
    """The final state, with the run's time and rate; start-up (imports,
    compiling, building circuits) apart, as it is paid once per process."""
    outcome = "halted" if state.halted else "stopped: step budget exhausted"
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
