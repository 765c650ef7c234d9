"""The soft pipeline: pixels as a differentiable function of a program's inputs.

    input bits --(soft machine: every ALU op a circuit, straight-through)-->
    output bytes' bits --(terminal: placement by value)--> cells' code bits
    --(neural display, relaxed or straight-through)--> pixels

and gradient descent on an input so that the screen shows a target.

Where gradients are real and where straight-through estimators stand in:
  * machine: every threshold unit of the ALU is straight-through (exact
    forward, sigmoid(pre / t) backward); control flow, addresses and the
    placement of bytes on the screen are discrete (see `soft_machine`).
  * display: straight-through as well (`relaxed=False`, what the descent
    uses: the soft pixels then equal the exact ones, and a cell that already
    shows its target passes no gradient), or relaxed (`relaxed=True`: its
    units output the sigmoid itself, pixels a smooth function of the code
    bits; at exact 0/1 bits that gradient mostly says "away from the glyph
    shown", even when it is the right one, so descent does not use it).
  * input: descent moves in the input's bits, one flip per step, ranked by
    the first-order estimate of each flip's loss change from the gradient
    (`descend`); every run is an exact run of an integer input.

Measured limits (benchmarks/pipeline_bench.py): the straight-through
gradients are good guides where output digits are simple functions of
input bits (a sum printed in octal); through carries of a product
(3x + 7) and through DIV/MOD (decimal printing) they are not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch
from torch import Tensor

from ncpu.display.capture import neural_display
from ncpu.display.networks import CODE_BITS, CURSOR_BITS, to_bits
from ncpu.display.screen import reference_frame
from ncpu.pipeline.soft_machine import SoftMachine, SoftRun
from ncpu.pipeline.stages import Built, execute
from ncpu.pipeline.terminal import screen_of


class SoftPipeline:
    def __init__(self, built: Built, temperature: float = 1.0, display_temperature: float = 0.5,
                 relaxed: bool = False, alu=None):
        from ncpu.machine.neural import neural_alu

        self.built = built
        self.machine = SoftMachine(alu if alu is not None else neural_alu(), temperature)
        self.display = neural_display()
        self.display_temperature = display_temperature
        self.relaxed = relaxed

    def run(self, registers: dict[int, Tensor], max_steps: int = 100_000) -> tuple[Tensor, SoftRun]:
        """Registers given as bit tensors [1, 32] (the others 0) -> pixels [1, H, W] and the run."""
        regs = [registers[r] if r in registers else self.machine.const(0) for r in range(8)]
        run = self.machine.run(self.built.words, regs, [0] * self.built.compiled.mem_size, max_steps)
        zero = torch.zeros(1, CODE_BITS)
        codes = torch.stack([zero if cell is None else cell.float() for cell in run.terminal.cells], 1)  # [1, CELLS, 8]
        cursor = to_bits(torch.tensor([run.terminal.cursor]), CURSOR_BITS)
        pixels = self.display.forward_bits(codes, cursor, self.display_temperature, self.relaxed)
        return pixels, run


def target_pixels(text: bytes) -> Tensor:
    """The exact screen showing `text` as the program's output: float [1, H, W]."""
    terminal = screen_of(text)
    frame = reference_frame(np.array(terminal.codes(), np.int64), terminal.cursor)
    return torch.from_numpy(frame.astype("float32"))[None]


def bits_value(bits: Tensor) -> int:
    return int(sum(int(b > 0.5) << i for i, b in enumerate(bits[0].tolist())))


def pixel_loss(pixels: Tensor, target: Tensor) -> Tensor:
    return ((pixels - target) ** 2).mean()


@dataclass
class Descent:
    target: bytes
    found: int | None                  # the input whose run printed the target, if any
    verified: bool                     # the reference engine printed the target for it too
    iterations: int                    # gradient steps taken
    evaluations: int                   # soft-machine runs (one per step with its backward pass, plus candidates)
    history: list[tuple[int, float, bytes]] = field(default_factory=list)   # (input, loss, output) per step


def descend(built: Built, target: bytes, register: int = 1, bits: int = 16, steps: int = 100,
            candidates: int = 3, start: int = 0, ranking: str = "gradient", seed: int = 0,
            pipeline: SoftPipeline | None = None, progress=None) -> Descent:
    """Discrete gradient descent on the low `bits` bits of input register
    `register` until the program prints `target`.

    Each step runs the soft pipeline on the current input, back-propagates
    the pixel loss to the input's bits, and ranks every single-bit flip by
    its first-order estimate of the loss change, g_i * (1 - 2 b_i). The
    best `candidates` flips not visited before are run (forward only) and
    the one with the lowest loss is taken; with candidates=1 the gradient
    alone decides. `ranking="random"` orders the flips at random instead:
    the baseline that shows what the gradient contributes. A found input is
    run again on the reference engine."""
    pipeline = pipeline or SoftPipeline(built, relaxed=False)
    goal = target_pixels(target)
    rng = torch.Generator().manual_seed(seed)
    mask = (1 << bits) - 1

    def run(x: int, grad: bool):
        xb = torch.tensor([[float((x >> i) & 1) for i in range(bits)]], requires_grad=grad)
        full = torch.cat([xb, pipeline.machine.const(x >> bits << bits)[:, bits:]], 1)
        pixels, soft = pipeline.run({register: full})
        return xb, pixel_loss(pixels, goal), soft

    x, seen, history, evaluations, found = start, {start}, [], 0, None
    for step in range(steps):
        xb, loss, soft = run(x, True)
        evaluations += 1
        history.append((x, float(loss.detach()), soft.output))
        if progress is not None:
            progress(step, x, float(loss.detach()), soft.output)
        if soft.output == target:
            found = x
            break
        loss.backward()
        estimate = xb.grad[0] * (1 - 2 * xb.detach()[0])            # predicted loss change of each flip
        order = (torch.argsort(estimate) if ranking == "gradient" else torch.randperm(bits, generator=rng)).tolist()
        flips = [i for i in order if (x ^ (1 << i)) & mask not in seen][:candidates]
        if not flips:
            break
        scored = []
        for i in flips:
            if len(flips) == 1:
                scored.append((0.0, i))
                continue
            with torch.no_grad():
                scored.append((float(run(x ^ (1 << i), False)[1]), i))
            evaluations += 1
        x ^= 1 << min(scored)[1]
        seen.add(x)
    args = [0] * (register - 1) + [found if found is not None else 0]
    verified = found is not None and execute(built, args).output == target
    return Descent(target, found, verified, len(history), evaluations, history)
