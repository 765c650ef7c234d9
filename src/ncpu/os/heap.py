"""The kernel heap: contiguous blocks in HEAP units, placed by a policy.

Each process's page table and header (a unit per virtual page, plus one)
is one block, allocated at spawn or fork and freed when the process ends.
The heap is simulated for the statistics (like a data cache): a failed
allocation is counted and the process runs anyway, so no placement policy
can change a result. `choose(heap, fitting, length)` returns the index of
the fitting hole to use; first fit and best fit are the classical ones,
nets/allocator.py the learned one.
"""

from __future__ import annotations

import numpy as np

HEAP = 64


class Heap:
    """Blocks by owner; holes derived from them. `place` is the policy."""

    def __init__(self, size: int = HEAP):
        self.size = size
        self.blocks: dict[object, tuple[int, int]] = {}  # owner -> (start, length)
        self.failures = self.allocations = 0
        self.fragmentation: list[float] = []

    def holes(self) -> list[tuple[int, int]]:
        out, at = [], 0
        for start, length in sorted(self.blocks.values()):
            if start > at:
                out.append((at, start - at))
            at = start + length
        if at < self.size:
            out.append((at, self.size - at))
        return out

    def alloc(self, owner, length: int, choose) -> bool:
        holes = self.holes()
        free = sum(h for _, h in holes)
        if free:
            self.fragmentation.append(1 - max(h for _, h in holes) / free)
        fitting = [h for h in holes if h[1] >= length]
        self.allocations += 1
        if not fitting:
            self.failures += 1
            return False
        start = fitting[choose(self, fitting, length)][0]
        self.blocks[owner] = (start, length)
        return True

    def free(self, owner) -> None:
        self.blocks.pop(owner, None)

    def copy(self) -> "Heap":
        other = Heap(self.size)
        other.blocks = dict(self.blocks)
        return other

    def stats(self) -> dict:
        return {"allocations": self.allocations, "failures": self.failures,
                "fragmentation": float(np.mean(self.fragmentation)) if self.fragmentation else 0.0}


def first_fit(heap, fitting, length) -> int:
    """The lowest-addressed hole that fits (holes come in address order)."""
    return 0


def best_fit(heap, fitting, length) -> int:
    """The smallest hole that fits, the lowest-addressed among equals."""
    return min(range(len(fitting)), key=lambda i: (fitting[i][1], i))
