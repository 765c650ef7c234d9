"""The learned watchdog: on held-out programs (loop shapes and corpus programs
it never saw) it ranks endless above ending programs better than the step
budget does; at run time it reports and never changes a result."""

from __future__ import annotations

from pathlib import Path

from ncpu.isa import assemble
from ncpu.machine.state import MachineState
from ncpu.os.kernel import Image, Kernel
from ncpu.os.nets import watchdog
from ncpu.os.neural import NeuralPolicies, load_net
from ncpu.os.policies import ClassicalPolicies
from ncpu.os.workload import load_images

OS_PROGRAMS = Path(__file__).resolve().parents[2] / "programs" / "os"


def test_held_out_shapes_are_not_training_shapes():
    assert not set(watchdog.TRAIN_SHAPES) & set(watchdog.HELD_SHAPES)


def test_shipped_watchdog_beats_the_budget_on_held_out_programs():
    held = [watchdog.observe(image) for _, image in watchdog.programs(True, per_shape=8)]
    assert 20 < sum(endless for _, endless in held) < len(held) - 20
    figures = watchdog.judge(load_net("watchdog"), held)
    budget = watchdog.baseline(held)
    assert figures["auroc"] > budget["auroc"] + 0.05
    assert figures["median_delay_steps"] < budget["median_delay_steps"]
    assert figures["false_flags"] <= 2


def endless(name: str, text: str) -> Image:
    return Image(name, assemble(text).words, MachineState(memory=[0] * 64), 30_000)


def test_flagged_processes_end_only_at_the_budget_and_results_agree():
    images = [endless("spin", "loop: JMP loop"),
              endless("odd", "MOV R1, 9\nloop: SUB R1, R1, 2\nCMP R1, 0\nJNZ loop\nHALT"),
              *load_images([OS_PROGRAMS / "hello.asm", OS_PROGRAMS / "sum.asm"])]
    reports = {}
    for policies in (ClassicalPolicies(), NeuralPolicies()):
        reports[policies.name] = Kernel(images, policies).run().report()
    strip = lambda r: [(p["program"], p["ended"], p["exit_status"], p["stdout"], p["steps"])  # noqa: E731
                       for p in r["processes"]]
    assert strip(reports["classical"]) == strip(reports["neural"])
    neural = {p["program"]: p for p in reports["neural"]["processes"]}
    assert neural["spin"]["ended"] == "step budget" and neural["spin"]["flagged_at_steps"] is not None
    assert neural["spin"]["flagged_at_steps"] < 30_000
    assert neural["hello"]["flagged_at_steps"] is None and neural["sum"]["flagged_at_steps"] is None
    assert all(p["flagged_at_steps"] is None for p in reports["classical"]["processes"])
    assert reports["neural"]["overrides"].get("watchdog", 0) == 0


def test_a_false_alarm_is_counted():
    policies = NeuralPolicies()
    with __import__("torch").no_grad():
        policies.watchdog_net.layers[-1].bias += 100.0  # flags everything
    report = Kernel(load_images([OS_PROGRAMS / "sum.asm"]), policies, slice_steps=50).run().report()
    assert report["processes"][0]["flagged_at_steps"] is not None
    assert report["processes"][0]["stdout"] == "2001000\n"
    assert report["overrides"]["watchdog"] == 1
