"""Frames of a running nCPU machine: the screen region of its memory,
rendered through the neural display."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import torch

from ncpu.display.networks import NeuralDisplay
from ncpu.display.screen import screen_words

_DISPLAY: list[NeuralDisplay] = []
RENDER_BATCH = 64


def neural_display() -> NeuralDisplay:
    """The display networks, built once per process."""
    if not _DISPLAY:
        _DISPLAY.append(NeuralDisplay())
    return _DISPLAY[0]


def render_memories(memories: list) -> list[np.ndarray]:
    """Machine memories -> frames uint8 [H, W] (1 = ink), through the networks."""
    display = neural_display()
    frames = []
    for start in range(0, len(memories), RENDER_BATCH):
        words = [screen_words(m) for m in memories[start:start + RENDER_BATCH]]
        codes = torch.from_numpy(np.stack([c for c, _ in words]))
        cursor = torch.tensor([c for _, c in words], dtype=torch.int64)
        with torch.inference_mode():
            pixels = display(codes, cursor)
        frames.extend(pixels.to(torch.uint8).numpy())
    return frames


def run_with_memories(engine: ModuleType, words, state, max_steps: int, every: int | None):
    """Run `engine` (an nCPU engine module) for up to `max_steps`; the final
    state and the memories to show: the final one, or with `every`, the
    initial memory and one after every `every` steps (and the final one)."""
    if every is None:
        final = engine.run(words, state, max_steps)
        return final, [final.memory]
    memories, current = [list(state.memory)], state
    end = state.steps + max_steps
    while not current.halted and not current.trapped and current.steps < end:
        before = current.steps
        current = engine.run(words, current, min(every, end - current.steps))
        memories.append(list(current.memory))
        if current.steps == before:
            break  # no progress: nothing more to show
    return current, memories
