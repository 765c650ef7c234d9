"""`ncpu bench`: instructions per second of each nCPU engine.

Every engine runs the same long, branchy loop (`BENCH_SOURCE`) that never
halts within the budget, so each machine executes exactly `steps`
instructions; machines of a batch start with different counters and so
take different branches. The figure is (instructions executed) / (seconds
of the run call), excluding start-up; the compute engine's start-up
(numba compile, or loading its cache) is measured on its own.

The measurement functions are library-like (they return rows); `main`
prints. `benchmarks/machine_bench.py` is this module run as a script.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

import numpy as np

BENCH_SOURCE = """
; Branchy benchmark loop: R1 counts down from ~2**31, so it never halts.
        MOV R0, 0
loop:   ADD R0, R0, R1
        AND R2, R1, 1
        CMP R2, 0
        JZ even
        XOR R0, R0, R1
        SHR R3, R0, 3
        JMP next
even:   SUB R0, R0, R2
        MUL R3, R0, R1
next:   DEC R1
        JNZ loop
        HALT
"""


@dataclass(frozen=True)
class Plan:
    """How far an engine is pushed: the largest batch it runs, and steps per
    machine so that one measurement takes a fraction of a second to seconds."""

    max_batch: int
    total_instructions: int  # steps per machine = this // batch, clamped to:
    min_steps: int
    max_steps: int  # the fast engine pays per step, whatever the batch
    note: str = ""


# One line per engine. `--neural` appends "neural" to --engines and prints
# the neural ALU's per-op table (`ncpu.alu.bench`).
PLANS: dict[str, Plan] = {
    "reference": Plan(64, 200_000, 1_000, 200_000, "pure Python; batches > 64 not run"),
    "compute": Plan(1 << 30, 300_000_000, 10_000, 1 << 40, "numba"),
    "fast": Plan(1 << 30, 8_000_000, 100, 1_000, "torch"),
    "neural": Plan(1 << 30, 400_000, 20, 5_000, "every op through the neural circuits"),
}
DEFAULT_ENGINES = ("reference", "compute", "fast")
# Torch engines: they take `device=` and obey --device / --torch-threads.
DEVICE_ENGINES = {"fast", "neural"}
DEFAULT_BATCHES = (1, 64, 4096)


@dataclass(frozen=True)
class Row:
    engine: str
    batch: int
    steps: int  # per machine
    instructions: int
    seconds: float
    note: str = ""

    @property
    def ips(self) -> float:
        return self.instructions / self.seconds if self.seconds > 0 else float("nan")


def bench_words() -> list[int]:
    from ncpu.isa import assemble

    return assemble(BENCH_SOURCE).words


def bench_batch(batch_size: int):
    from ncpu.machine.state import BatchState

    batch = BatchState.zeros(batch_size, 64)
    batch.registers[:, 1] = (1 << 31) - 1 - np.arange(batch_size)
    return batch


def steps_for(engine: str, batch_size: int, steps: int | None) -> int | None:
    """Steps per machine for this engine and batch, or None when skipped."""
    plan = PLANS.get(engine, Plan(1 << 30, 1_000_000, 10, 1_000))
    if batch_size > plan.max_batch:
        return None
    if steps is not None:
        return steps
    return min(plan.max_steps, max(plan.min_steps, plan.total_instructions // batch_size))


def measure(engine: str, batch_size: int, steps: int, **engine_options) -> Row:
    """Run `batch_size` machines for `steps` steps each; time the run call.
    Single-machine rows (batch 1) go through `run`, the rest `run_batch`."""
    from ncpu.machine.decoded import decode_words
    from ncpu.machine.engines import get_engine

    module = get_engine(engine)
    words = bench_words()
    batch = bench_batch(batch_size)
    program = decode_words(words) if engine != "reference" else words
    if batch_size == 1:
        state = batch.machine(0)
        module.run(program, state, 10, **engine_options)  # warm caches, not timed
        start = time.perf_counter()
        out = module.run(program, state, steps, **engine_options)
        seconds = time.perf_counter() - start
        executed = out.steps - state.steps
    else:
        module.run_batch(program, batch, 10, **engine_options)
        start = time.perf_counter()
        out = module.run_batch(program, batch, steps, **engine_options)
        seconds = time.perf_counter() - start
        executed = int(out.steps.sum() - batch.steps.sum())
    return Row(engine, batch_size, steps, int(executed), seconds, PLANS[engine].note if engine in PLANS else "")


def compute_startup_seconds() -> float:
    """Import + first call of the compute engine in this process: a numba
    compile on a cold cache, a cache load otherwise."""
    start = time.perf_counter()
    from ncpu.machine import compute

    compute.warm_up()
    return time.perf_counter() - start


def compute_cold_compile_seconds() -> float:
    """Import + compile of both compute kernels with an empty numba cache,
    in a fresh interpreter (so the figure is what a first-ever run pays)."""
    code = ("import time; t = time.perf_counter(); from ncpu.machine import compute; "
            "compute.warm_up(); print(time.perf_counter() - t)")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def format_table(rows: list[Row]) -> str:
    header = f"{'engine':<10} {'batch':>6} {'steps/machine':>14} {'instructions':>14} {'seconds':>8} {'instr/s':>12}  note"
    lines = [header, "-" * len(header)]
    for r in rows:
        lines.append(f"{r.engine:<10} {r.batch:>6} {r.steps:>14,} {r.instructions:>14,} {r.seconds:>8.3f} "
                     f"{_si(r.ips):>12}  {r.note}")
    return "\n".join(lines)


def _si(value: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= scale:
            return f"{value / scale:.2f} {unit}"
    return f"{value:.0f}"


def _int_list(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected positive integers, got {text!r}")
    return values


def _name_list(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engines", type=_name_list, default=list(DEFAULT_ENGINES), metavar="LIST",
                        help="comma-separated engines to measure (default: reference,compute,fast)")
    parser.add_argument("--batches", type=_int_list, default=list(DEFAULT_BATCHES), metavar="LIST",
                        help="comma-separated batch sizes (default: 1,64,4096); batch 1 uses run(), "
                             "larger ones run_batch()")
    parser.add_argument("--steps", type=int, default=None, metavar="N",
                        help="steps per machine for every engine (default: per engine, so that each "
                             "row runs about a second; the reference engine stops at batch 64)")
    parser.add_argument("--device", default="cpu",
                        help="torch device for the tensor engines, e.g. cuda (default: cpu)")
    parser.add_argument("--torch-threads", type=int, default=1, metavar="N",
                        help="torch intra-op threads (default 1: a step is many tiny ops, and waking "
                             "threads for each costs more than it saves on shared cores)")
    parser.add_argument("--neural", action="store_true",
                        help="also measure the neural engine, and print the neural ALU's per-op table: "
                             "latency at batch 1, amortised ns/op at batch 4,096, sequential layers, "
                             "beside the original nCPU's published figures")
    parser.add_argument("--no-cold-compile", action="store_true",
                        help="skip timing a from-scratch numba compile in a fresh interpreter (~10 s)")


def run_bench(args: argparse.Namespace) -> int:
    from ncpu.cli import CommandError
    from ncpu.machine.engines import EngineUnavailable, get_engine

    if args.steps is not None and args.steps < 1:
        raise CommandError("--steps must be at least 1")
    if getattr(args, "neural", False) and "neural" not in args.engines:
        args.engines = [*args.engines, "neural"]
    for name in args.engines:
        try:
            get_engine(name)
        except EngineUnavailable as error:
            raise CommandError(str(error)) from None
    options: dict[str, dict] = {name: {} for name in args.engines}
    if DEVICE_ENGINES & set(args.engines):
        import torch

        from ncpu.commands._torch import check_device

        check_device(args.device)
        if args.torch_threads < 1:
            raise CommandError("--torch-threads must be at least 1")
        torch.set_num_threads(args.torch_threads)
        for name in DEVICE_ENGINES & set(args.engines):
            options[name] = {"device": args.device}

    from tqdm import tqdm

    lines = []
    if "compute" in args.engines:
        lines.append(f"compute start-up (import + first call, numba cache as found): {compute_startup_seconds():.2f} s")
        if not args.no_cold_compile:
            lines.append(f"compute cold compile (fresh interpreter, empty numba cache): "
                         f"{compute_cold_compile_seconds():.2f} s")
    if "neural" in args.engines:
        from ncpu.alu.weights import WeightsError, build_alu

        try:
            build_alu(32, "trained")     # a weights file that cannot be used is a one-line error, up front
        except WeightsError as error:
            raise CommandError(str(error)) from None
    plan = [(engine, b, steps_for(engine, b, args.steps)) for engine in args.engines for b in args.batches]
    rows = [measure(engine, b, steps, **options[engine])
            for engine, b, steps in tqdm([p for p in plan if p[2] is not None], desc="bench", leave=False,
                                         file=sys.stderr)]
    skipped = [f"{engine} B={b}" for engine, b, steps in plan if steps is None]
    if getattr(args, "neural", False):
        from ncpu.alu.bench import format_rows, op_latency_rows

        device = None if args.device == "cpu" else args.device
        print("neural ALU, per operation (int64 in and out, bit encoding included; trained weights):")
        print(format_rows(op_latency_rows(4096, "trained", device), 4096))
        print("original: nCPU's published figures, Apple GPU, batch 1 (ADD/SUB/CMP: 8 passes)")
        print()
    print(format_table(rows))
    for line in lines:
        print(line)
    if skipped:
        print("not run (too slow for this engine): " + ", ".join(skipped))
    print(f"program: the branchy loop in ncpu.commands.bench.BENCH_SOURCE; fast engine on {args.device}, "
          f"torch threads {args.torch_threads}")
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "bench", help="instructions per second of each engine",
        description="Measure instructions per second of the nCPU engines on a long branchy loop, "
                    "for one machine and for batches, and the compute engine's start-up cost.",
        epilog="example: ncpu bench --engines compute,fast --batches 1,4096 --steps 2000")
    add_arguments(parser)
    parser.set_defaults(func=run_bench)
    targets = parser.add_subparsers(dest="target", metavar="{synth}")
    synth = targets.add_parser(
        "synth", help="the program-synthesis suite, beside cvc5",
        description="Run the synthesis benchmark suite with a budget per problem; print solved/total "
                    "per problem family and solver family, median and p90 times, and cvc5's figures "
                    "on the same problems; write a JSON report.")
    from ncpu.commands.bench_synth import add_synth_bench_arguments, run_synth_bench

    add_synth_bench_arguments(synth)
    synth.set_defaults(func=run_synth_bench)


def main(argv: list[str] | None = None) -> int:
    """Entry point for `python benchmarks/machine_bench.py`."""
    from ncpu.cli import CommandError

    parser = argparse.ArgumentParser(prog="machine_bench.py", description=__doc__.splitlines()[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run_bench(args)
    except CommandError as error:
        print(f"machine_bench.py: error: {error}", file=sys.stderr)
        return 2
