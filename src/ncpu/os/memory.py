"""Virtual memory: pages of words, a page table per process, frames of physical memory.

A process sees `mem_size` words (its engine's flat memory). The kernel keeps
them in page frames: virtual page `vpn` (words vpn*PAGE_WORDS ...) lives in
the frame its page table names, or nowhere (unmapped). Unmapped pages read
as zero (the shared zero page); the first write to one is a page fault,
which allocates a frame (zero-fill on demand). Results never depend on
where frames are.

How this meets the engines, which address one flat array: before a time
slice the kernel builds the process's flat memory from its mapped frames
(every address translated through the MMU policy), and after it compares:
words that changed are written back to their frames, faulting in pages
written for the first time. A page written only with zeros stays unmapped,
which a program cannot tell from a mapped page of zeros.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

PAGE_WORDS = 64
UNMAPPED = -1


class OutOfFrames(Exception):
    """No free frame for a page fault."""


@dataclass
class PhysicalMemory:
    """Frames of PAGE_WORDS words and which of them are in use."""

    frames: int
    words: np.ndarray = field(init=False)
    used: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.words = np.zeros((self.frames, PAGE_WORDS), np.int64)
        self.used = np.zeros(self.frames, np.bool_)

    def free(self, frame: int) -> None:
        self.used[frame] = False
        self.words[frame] = 0

    @property
    def in_use(self) -> int:
        return int(self.used.sum())


@dataclass
class AddressSpace:
    """One process's page table: frame of every virtual page, or UNMAPPED."""

    mem_size: int
    table: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.table = np.full(pages_for(self.mem_size), UNMAPPED, np.int64)

    def mapped(self) -> np.ndarray:
        return np.nonzero(self.table != UNMAPPED)[0]


def pages_for(mem_size: int) -> int:
    return -(-mem_size // PAGE_WORDS)
