"""nsl source -> compiler -> assembler -> machine -> display -> pixels.

`run_pipeline` runs the stages twice: through the networks (the neural
engine, where every ALU operation and flag is a circuit, and the neural
display) and the exact way (the reference engine and the classical
renderer `ncpu.display.screen.reference_frame`), so a caller can check the
pixels agree. The program's standard output is laid out on the text screen
by `Terminal`. The assembler stage is neurOS's neural assembler
(`ncpu.os.nets.assembler`, networks from characters to words), checked word
by word against the classical one (`assembler_overrides`, expected 0); the
exact path runs the classical assembler's words.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ncpu.display.screen import CURSOR, reference_frame
from ncpu.isa import assemble
from ncpu.isa.semantics import wrap
from ncpu.machine.engines import get_engine
from ncpu.machine.state import MachineState
from ncpu.machine.traps import Console, run_serviced
from ncpu.nsl import CompiledProgram, compile_source
from ncpu.pipeline.terminal import Terminal, screen_of

DEFAULT_MAX_STEPS = 1_000_000


@dataclass
class Built:
    """A program through the first two stages."""

    compiled: CompiledProgram
    words: list[int]  # from the neural assembler (the classical words where the guard overrode it)
    classical_words: list[int] | None = None  # from the classical assembler (the exact path)
    assembler_overrides: int = 0

    def initial_state(self, args: list[int] = ()) -> MachineState:
        """Memory of the program's size; main's parameters in R1, R2, ..."""
        if len(args) > len(self.compiled.main_params):
            raise ValueError(f"main takes {len(self.compiled.main_params)} parameter(s), given {len(args)}")
        state = MachineState(memory=[0] * self.compiled.mem_size)
        for index, value in enumerate(args):
            state.registers[1 + index] = wrap(value)
        return state


def build(source: str, name: str = "program.nsl", neural: bool = True) -> Built:
    """Compile (raises NslError) and assemble, through the neural assembler
    unless `neural` is False."""
    compiled = compile_source(source, name)
    classical = assemble(compiled.assembly).words
    if not neural:
        return Built(compiled, classical, classical)
    from ncpu.os.nets.assembler import guarded, shipped

    program, overrides = guarded(shipped(), compiled.assembly)
    return Built(compiled, program.words, classical, overrides)


def with_classical_words(built: Built) -> Built:
    """The same program with the classical assembler's words."""
    return Built(built.compiled, built.classical_words or built.words, built.classical_words)


@dataclass
class Execution:
    final: MachineState
    output: bytes
    exit_status: int | None
    terminal: Terminal


def execute(built: Built, args: list[int] = (), engine: str = "reference",
            max_steps: int = DEFAULT_MAX_STEPS) -> Execution:
    """Run on an nCPU engine with exit and write serviced (the bare machine)."""
    console = Console()
    final = run_serviced(get_engine(engine), built.words, built.initial_state(args), max_steps, console)
    return Execution(final, bytes(console.stdout), console.exit_status, screen_of(bytes(console.stdout)))


def screen_memory(terminal: Terminal) -> list[int]:
    """The display's memory region holding this terminal's screen."""
    memory = [0] * (CURSOR + 1)
    terminal.put_on_screen(memory)
    return memory


def neural_pixels(terminal: Terminal) -> np.ndarray:
    """The screen through the neural display: uint8 [H, W], 1 = ink."""
    from ncpu.display.capture import render_memories

    return render_memories([screen_memory(terminal)])[0]


def classical_pixels(terminal: Terminal) -> np.ndarray:
    return reference_frame(np.array(terminal.codes(), np.int64), terminal.cursor).astype(np.uint8)


@dataclass
class PipelineResult:
    built: Built
    neural: Execution          # the neural engine
    exact: Execution           # the reference engine
    pixels: np.ndarray         # neural engine -> neural display
    exact_pixels: np.ndarray   # reference engine -> classical renderer

    @property
    def same_pixels(self) -> bool:
        return bool(np.array_equal(self.pixels, self.exact_pixels))


def run_pipeline(source: str, args: list[int] = (), name: str = "program.nsl",
                 max_steps: int = DEFAULT_MAX_STEPS) -> PipelineResult:
    built = build(source, name)
    neural = execute(built, args, "neural", max_steps)
    exact = execute(with_classical_words(built), args, "reference", max_steps)
    return PipelineResult(built, neural, exact, neural_pixels(neural.terminal), classical_pixels(exact.terminal))
