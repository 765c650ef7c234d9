"""The compiler optimizer part of neurOS: data, training and the held-out figures.

Programs: the bundled nsl examples, split by name (`nets.optimizer.split`)
into training and held-out ones. Training data: every (window, candidate)
the oracle sees while optimizing the training programs, labelled by the
guard's verdict. Evaluation, on held-out programs only: each chooser
(classical greedy, oracle, network) optimizes each program; the result is
run on the machine and must print the expected output with the expected
exit status; instructions and executed steps are counted before and after.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from ncpu.isa import assemble
from ncpu.machine.engines import get_engine
from ncpu.machine.state import MachineState
from ncpu.machine.traps import Console, run_serviced
from ncpu.nsl import compile_source
from ncpu.nsl import peephole
from ncpu.nsl.codegen import CompiledProgram
from ncpu.os.nets import optimizer as net_module

EXAMPLES = Path(__file__).resolve().parents[1] / "nsl" / "examples"
MAX_STEPS = 2_000_000


@dataclass(frozen=True)
class Example:
    name: str
    source: str
    args: tuple[int, ...]
    output: bytes
    status: int


def examples() -> dict[str, Example]:
    found = {}
    for path in sorted(EXAMPLES.glob("*.nsl")):
        source = path.read_text()
        args = re.search(r"//\s*@args\s+(.*)", source)
        status = re.search(r"//\s*@status\s+(-?\d+)", source)
        found[path.stem] = Example(path.stem, source, tuple(int(a) for a in args.group(1).split()) if args else (),
                                   path.with_suffix(".out").read_bytes(), int(status.group(1)) if status else 0)
    return found


def run_program(compiled: CompiledProgram, args, engine: str = "compute") -> tuple[bytes, int | None, int]:
    """(stdout, exit status, steps) of a compiled program on an engine."""
    state = MachineState(memory=[0] * compiled.mem_size)
    for index, value in enumerate(args):
        state.registers[1 + index] = value
    console = Console()
    final = run_serviced(get_engine(engine), assemble(compiled.assembly).words, state, MAX_STEPS, console)
    return bytes(console.stdout), console.exit_status, final.steps


def optimized(compiled: CompiledProgram, chooser, seed: int = 0, observe=None, guard=None):
    assembly, report = peephole.optimize(compiled.assembly, compiled.mem_size, chooser, seed, observe, guard)
    return replace(compiled, assembly=assembly), report


def training_data(names: list[str], log=None) -> tuple[list[list[float]], list[float]]:
    """Every candidate of every window the oracle meets, with the guard's verdict."""
    rows, labels = [], []
    found = examples()
    for name in names:
        compiled = compile_source(found[name].source, name + ".nsl")
        guard = peephole.Guard(compiled.mem_size)

        def observe(window, live, candidates, verdicts):
            for candidate in candidates:
                rows.append(net_module.features(window, live, candidate))
                labels.append(float(guard(window, candidate.new, live)[0]))

        optimized(compiled, peephole.oracle(guard), observe=observe, guard=guard)
        if log:
            log(f"optimizer data: {name}: {len(rows):,} candidates so far, {int(sum(labels))} proven")
    return rows, labels


def train(seed: int = 0, log=None) -> net_module.OptimizerNet:
    training, _ = net_module.split(sorted(examples()))
    rows, labels = training_data(training, log)
    return net_module.train(rows, labels, seed=seed, log=log)


def choosers(net) -> dict[str, object]:
    return {"classical": lambda guard: peephole.greedy, "oracle": peephole.oracle,
            "neural": lambda guard: net_module.chooser(net)}


def evaluate(net, names: list[str] | None = None, engine: str = "compute", log=None,
             which: tuple[str, ...] = ("classical", "oracle", "neural")) -> dict:
    """Per held-out program and chooser: instructions and steps before and
    after, proofs spent, overrides, and whether the output is still right."""
    found = examples()
    names = names if names is not None else net_module.split(sorted(found))[1]
    programs = []
    for name in names:
        example = found[name]
        compiled = compile_source(example.source, name + ".nsl")
        out, status, steps = run_program(compiled, example.args, engine)
        entry = {"name": name, "instructions": None, "steps": steps, "correct": (out, status) == (
            example.output, example.status)}
        for chooser_name in which:
            make = choosers(net)[chooser_name]
            guard = peephole.Guard(compiled.mem_size)
            program, report = optimized(compiled, make(guard), guard=guard)
            out, status, after = run_program(program, example.args, engine)
            entry["instructions"] = report.before
            entry[chooser_name] = {
                "instructions": report.after, "steps": after, "rewrites": len(report.applied),
                "guard_calls": report.guard_calls, "smt_calls": report.smt_calls,
                "overrides": report.rejected, "correct": (out, status) == (example.output, example.status),
                "proofs": sorted({r.proof for r in report.applied}),
            }
        programs.append(entry)
        if log:
            log(f"optimizer eval: {name}")
    totals = {"instructions": sum(p["instructions"] for p in programs), "steps": sum(p["steps"] for p in programs)}
    for chooser_name in which:
        for key in ("instructions", "steps", "guard_calls", "smt_calls", "overrides", "rewrites"):
            totals[f"{chooser_name}_{key}"] = sum(p[chooser_name][key] for p in programs)
        totals[f"{chooser_name}_correct"] = all(p[chooser_name]["correct"] for p in programs)
    return {"programs": programs, "totals": totals, "held_out": names}


WEIGHTS_FILE = Path(__file__).resolve().parent / "weights" / "optimizer.pt"


def load(path: Path = WEIGHTS_FILE, device=None) -> net_module.OptimizerNet:
    """The shipped network (`ncpu os train` makes it)."""
    import torch

    from ncpu.os.neural import WeightsMissing

    try:
        net = net_module.OptimizerNet()
        net.load_state_dict(torch.load(path, map_location=device or "cpu", weights_only=True))
    except Exception as error:  # a missing, truncated or foreign file
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise WeightsMissing(f"optimizer weights {path}: {reason[:200]}; run `ncpu os train`") from None
    return net.eval()
