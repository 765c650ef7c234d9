"""The soft pipeline: pixels as a differentiable function of a program's inputs.

    input bits --(soft machine: every ALU op a circuit, straight-through)-->
    output bytes' bits --(terminal: placement by value)--> cells' code bits
    --(neural display, relaxed or straight-through)--> pixels

and gradient descent on an input so that the screen shows a target.

Where gradients are real and where straight-through estimators stand in:
  * machine: every threshold unit of the ALU is straight-through (exact
    forward, sigmoid(pre / t) backward); control flow, addresses and the
    placement of bytes on the screen are discrete (see `soft_machine`).
  * display: with `relaxed=True` (the default here) its threshold units
    output the sigmoid itself, so the pixels are a smooth function of the
    code bits; with `relaxed=False` they are straight-through too and the
    soft pixels equal the exact ones.
  * input: the descent keeps real-valued logits for the input's bits; the
    machine sees their signs (a straight-through step with a sigmoid
    gradient), so every run is an exact run of an integer input.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch
from torch import Tensor

from ncpu.alu.threshold import heaviside
from ncpu.display.capture import neural_display
from ncpu.display.networks import CODE_BITS, CURSOR_BITS, to_bits
from ncpu.display.screen import CELLS, reference_frame
from ncpu.pipeline.soft_machine import WIDTH, SoftMachine, SoftRun
from ncpu.pipeline.stages import Built, execute
from ncpu.pipeline.terminal import screen_of


class SoftPipeline:
    def __init__(self, built: Built, temperature: float = 1.0, display_temperature: float = 0.5,
                 relaxed: bool = True, alu=None):
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
    import numpy as np

    frame = reference_frame(np.array(terminal.codes(), np.int64), terminal.cursor)
    return torch.from_numpy(frame.astype("float32"))[None]


def input_bits(logits: Tensor, temperature: float = 1.0) -> Tensor:
    """Logits [1, k] -> the input's bits [1, 32]: signs forward (straight-through
    sigmoid backward) in the low k bits, zeros above."""
    bits = heaviside(logits, temperature)
    return torch.cat([bits, torch.zeros(1, WIDTH - bits.shape[1])], 1)


def bits_value(bits: Tensor) -> int:
    return int(sum(int(b > 0.5) << i for i, b in enumerate(bits[0].tolist())))


@dataclass
class Descent:
    target: bytes
    found: int | None                  # the input whose run printed the target, if any
    verified: bool                     # the exact machine (reference engine) printed the target for it
    iterations: int
    history: list[tuple[int, float, bytes]] = field(default_factory=list)   # (input, loss, output) per step


def pixel_loss(pixels: Tensor, target: Tensor) -> Tensor:
    return ((pixels - target) ** 2).mean()


def descend(built: Built, target: bytes, register: int = 1, bits: int = 16, steps: int = 200,
            lr: float = 0.3, start: int = 0, seed: int = 0, pipeline: SoftPipeline | None = None,
            progress=None) -> Descent:
    """Gradient descent (Adam) on the logits of input register `register`'s
    low `bits` bits until the program prints `target`; the found input is
    run again on the reference engine."""
    pipeline = pipeline or SoftPipeline(built)
    goal = target_pixels(target)
    generator = torch.Generator().manual_seed(seed)
    start_bits = torch.tensor([[float((start >> i) & 1) for i in range(bits)]])
    logits = ((start_bits * 2 - 1) * 0.5 + 0.01 * torch.randn(1, bits, generator=generator)).requires_grad_(True)
    optimizer = torch.optim.Adam([logits], lr=lr)
    history, found = [], None
    for step in range(steps):
        x_bits = input_bits(logits)
        pixels, run = pipeline.run({register: x_bits})
        loss = pixel_loss(pixels, goal)
        x = bits_value(x_bits)
        history.append((x, float(loss), run.output))
        if progress is not None:
            progress(step, x, float(loss), run.output)
        if run.output == target:
            found = x
            break
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    verified = found is not None and execute(built, [found] if register == 1 else
                                             [0] * (register - 1) + [found]).output == target
    return Descent(target, found, verified, len(history), history)
