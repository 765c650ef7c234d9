"""Source to pixels: the networks' path equals the exact path, the soft path is
differentiable, and gradients steer an input towards a target screen."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "nsl"))
from nsl_examples import EXAMPLES, load_examples  # noqa: E402

from ncpu.alu import build_alu  # noqa: E402
from ncpu.pipeline.differentiable import SoftPipeline, descend, pixel_loss, target_pixels  # noqa: E402
from ncpu.pipeline.stages import build, execute, run_pipeline  # noqa: E402
from ncpu.pipeline.terminal import screen_of  # noqa: E402

OCTAL = (EXAMPLES / "octal.nsl").read_text()
BY_NAME = {example.name: example for example in load_examples()}


@pytest.fixture(scope="module")
def octal():
    return build(OCTAL)


def test_terminal_lays_out_lines_wraps_and_scrolls():
    screen = screen_of(b"ab\ncd\r" + b"x" * 41 + b"\n")
    text = bytes(screen.codes())
    assert text[:2] == b"ab" and text[40:42] == b"xx" and text[80:81] == b"x"
    assert screen.cursor == 120
    scrolled = screen_of(b"".join(b"%d\n" % i for i in range(14)))
    assert bytes(scrolled.codes())[:1] == b"3" and scrolled.cursor == 11 * 40


@pytest.mark.parametrize("name", ["hello", "octal", "fizzbuzz"])
def test_the_networks_draw_the_same_pixels_as_the_exact_path(name):
    torch.set_num_threads(1)
    example = BY_NAME[name]
    result = run_pipeline(example.source, list(example.args))
    assert result.neural.output == result.exact.output == example.output
    assert result.neural.final == result.exact.final
    assert result.same_pixels and result.pixels.sum() > 0


@pytest.mark.parametrize("name", ["hello", "arithmetic", "bitwise", "compare", "compound", "octal", "gcd"])
def test_the_soft_machine_computes_what_the_reference_engine_computes(name):
    example = BY_NAME[name]
    built = build(example.source)
    exact = execute(built, list(example.args))
    pipeline = SoftPipeline(built)
    registers = {1 + i: pipeline.machine.const(v) for i, v in enumerate(example.args)}
    with torch.no_grad():
        pixels, soft = pipeline.run(registers)
    assert soft.output == exact.output and soft.exit_status == exact.exit_status
    assert soft.steps == exact.final.steps and soft.pc == exact.final.pc
    assert [pipeline.machine.value(r) for r in soft.registers] == exact.final.registers
    frame = target_pixels(exact.output)
    assert torch.equal(pixels, frame)       # straight-through display: the exact pixels


def test_pixels_are_differentiable_in_the_input_and_the_circuit_parameters(octal):
    alu = build_alu(32, "trained").requires_grad_(True)   # a private copy: its .grad fields are written here
    pipeline = SoftPipeline(octal, alu=alu)
    x = pipeline.machine.const(4321).requires_grad_(True)
    pixels, soft = pipeline.run({1: x})
    assert soft.output == b"012663\n"
    pixel_loss(pixels, target_pixels(b"012664\n")).backward()
    assert x.grad[0, :3].abs().sum() > 0                      # the last digit's bits
    grads = [p.grad for p in alu.parameters() if p.grad is not None]
    assert grads and sum(float(g.abs().sum()) for g in grads) > 0


def test_a_gradient_step_reduces_the_pixel_loss(octal):
    """One step with the gradient alone choosing the bit to flip
    (candidates=1) lowers the pixel loss in most of 12 fixed start/target
    pairs, and more often than a flip chosen at random from the same starts."""
    import random

    pipeline = SoftPipeline(octal)
    cases = [(0, 4321), (4321, 0), (12345, 54321)] + [
        (random.Random(i).randrange(1 << 16), random.Random(100 + i).randrange(1 << 16)) for i in range(9)]
    lowered = {"gradient": 0, "random": 0}
    for ranking in lowered:
        for start, x_target in cases:
            target = execute(octal, [x_target]).output
            d = descend(octal, target, steps=2, candidates=1, start=start, ranking=ranking, pipeline=pipeline)
            lowered[ranking] += d.history[1][1] < d.history[0][1]
    assert lowered["gradient"] >= 8 and lowered["gradient"] > lowered["random"], lowered


def test_descent_finds_an_input_and_the_exact_machine_agrees(octal):
    target = execute(octal, [4321]).output                   # b"012663\n"
    d = descend(octal, target, steps=10, candidates=3, start=4321 ^ 0b1001)
    assert d.found is not None and d.verified
    assert execute(octal, [d.found]).output == target


def test_descent_reports_failure_honestly(octal):
    d = descend(octal, b"not a number\n", steps=3, candidates=1)
    assert d.found is None and not d.verified and d.iterations == 3
