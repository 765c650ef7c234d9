"""Workloads: program files loaded as kernel images."""

from __future__ import annotations

from pathlib import Path

from ncpu.machine.program_file import load_program_file
from ncpu.os.kernel import Image


def load_images(paths: list[str | Path], policies=None) -> list[Image]:
    """Each program file (with its @init/@mem/@mem-size/@max-steps header) as an image.
    With `policies`, the words come from its assembler (the neural one, guarded,
    under the neural policy); without, from the header parser's classical one."""
    images = []
    for path in paths:
        loaded = load_program_file(path)
        words = policies.assemble(loaded.source).words if policies is not None else loaded.program.words
        images.append(Image(loaded.name or Path(path).stem, words, loaded.fresh_state(), loaded.max_steps))
    return images
