"""The programs the learned parts of neurOS train on and are judged on.

Jobs come from the programs corpus (`programs/*.asm`, each with its own
input and with that input scaled, so that one program gives jobs of several
lengths) and from the nsl examples (compiled; they print through the write
system call). Every learned part splits them BY PROGRAM: all jobs of one
program are on the same side, so a held-out figure is never measured on a
program the network saw in training.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import Path

from ncpu.isa import assemble
from ncpu.isa.semantics import wrap
from ncpu.machine.state import MachineState
from ncpu.os.kernel import Image

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "programs"
NSL_EXAMPLES = Path(__file__).resolve().parents[1] / "nsl" / "examples"
SCALES = (1, 4, 16, 64)  # multipliers of a program's own R0 input


@dataclass
class Job:
    program: str  # what the split is by
    image: Image


def held_out(program: str, fold: int = 3) -> bool:
    """A fixed third of the programs, by a hash of the name (no peeking at lengths)."""
    return zlib.crc32(program.encode()) % fold == 0


def corpus_jobs(max_r0: int = 4096) -> list[Job]:
    """Every corpus program with its test input and its default input, and R0 scaled."""
    from ncpu.machine.program_file import load_program_file

    jobs = []
    if not CORPUS.is_dir():
        return jobs
    seen = set()
    for path in sorted(CORPUS.glob("*.asm")):
        loaded = load_program_file(path)
        for test in (True, False):
            base = loaded.fresh_state(test=test)
            for scale in SCALES:
                r0 = base.registers[0] * scale
                if scale > 1 and not 2 <= r0 <= max_r0:
                    continue
                state = base.copy()
                state.registers[0] = wrap(r0)
                key = (path.stem, tuple(state.registers))
                if key in seen:
                    continue
                seen.add(key)
                jobs.append(Job(path.stem, Image(f"{path.stem}", loaded.program.words, state, loaded.max_steps)))
    return jobs


def nsl_jobs(max_steps: int = 1_000_000) -> list[Job]:
    from ncpu.nsl import compile_source

    jobs = []
    for path in sorted(NSL_EXAMPLES.glob("*.nsl")):
        compiled = compile_source(path.read_text(), path.name)
        if compiled.main_params:
            continue  # needs arguments we do not have
        words = assemble(compiled.assembly).words
        jobs.append(Job(f"nsl:{path.stem}", Image(path.stem, words, MachineState(memory=[0] * compiled.mem_size),
                                                  max_steps)))
    return jobs


def all_jobs() -> list[Job]:
    return corpus_jobs() + nsl_jobs()
