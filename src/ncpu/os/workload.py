"""Workloads: program files loaded as kernel images."""

from __future__ import annotations

from pathlib import Path

from ncpu.machine.program_file import load_program_file
from ncpu.os.kernel import Image


def load_images(paths: list[str | Path]) -> list[Image]:
    """Each program file (with its @init/@mem/@mem-size/@max-steps header) as an image."""
    images = []
    for path in paths:
        loaded = load_program_file(path)
        images.append(Image(loaded.name or Path(path).stem, loaded.program.words, loaded.fresh_state(),
                            loaded.max_steps))
    return images
