"""The machine's physical memory: a pool of refcounted 4 KiB frames.

Why one pool for all processes: a forked child shares its parent's frames
(copy-on-write), MAP_SHARED mappings of one file share frames between
processes, and the machine has one memory budget however its processes
divide it.  Every process's page table `pt` names rows of the same flat
array `data`.

The pool grows by doubling (numpy's zeroed allocation is committed by the
host only when touched) up to `max_frames`, the `--memory` budget; a frame
beyond it raises OutOfMemory.  Growth replaces `data`, so each Memory
rebuilds the arrays it hands to the compiled loop when it sees a new `data`.
"""
from __future__ import annotations

import numpy as np

PAGE_SIZE = 4096
DEFAULT_BUDGET = 4 << 30          # bytes: the default of `ncpu arm64 --memory`


class OutOfMemory(Exception):
    """The machine's memory budget is spent: no frame for a page the guest needs."""


class FramePool:
    def __init__(self, budget: int = DEFAULT_BUDGET, initial_frames: int = 64):
        if budget < PAGE_SIZE:
            raise ValueError(f"memory budget of {budget} bytes is smaller than one page")
        self.budget = budget
        self.max_frames = budget // PAGE_SIZE
        n = min(initial_frames, self.max_frames)
        self.data = np.zeros(n * PAGE_SIZE, np.uint8)
        self.refs = np.zeros(n, np.int32)
        self._free: list[int] = []            # recycled frames (their bytes are stale)
        self._top = 0                         # frames above this were never used: still zero
        self.used = 0
        # MAP_SHARED file pages: (device, inode, page index) <-> frame, and which are dirty
        self.file_frames: dict[tuple, int] = {}
        self.frame_key: dict[int, tuple] = {}
        self.dirty: set[int] = set()

    def __deepcopy__(self, memo):
        return self                           # physical memory: snapshots share it (frames are refcounted)

    @property
    def free_frames(self) -> int:
        return self.max_frames - self.used

    def alloc(self, zero: bool = True) -> int:
        """A frame with one reference (zero-filled unless zero=False)."""
        if self._free:
            f = self._free.pop()
            if zero:
                self.data[f * PAGE_SIZE:(f + 1) * PAGE_SIZE] = 0
        else:
            if self._top >= self.max_frames:
                raise OutOfMemory(f"the guest needs more than its memory budget of {self.budget >> 20} MiB")
            if self._top >= len(self.refs):
                self._grow()
            f = self._top
            self._top += 1
        self.refs[f] = 1
        self.used += 1
        return f

    def _grow(self) -> None:
        n = len(self.refs)
        new = min(max(2 * n, 64), self.max_frames)
        data = np.zeros(new * PAGE_SIZE, np.uint8)
        used = self._top * PAGE_SIZE             # copy only frames ever used: the rest stay uncommitted
        data[:used] = self.data[:used]
        refs = np.zeros(new, np.int32)
        refs[:n] = self.refs
        self.data, self.refs = data, refs

    def frame(self, f: int) -> np.ndarray:
        return self.data[f * PAGE_SIZE:(f + 1) * PAGE_SIZE]

    def copy(self, f: int) -> int:
        """A private copy of frame f (the caller drops its reference to f)."""
        g = self.alloc(zero=False)
        self.data[g * PAGE_SIZE:(g + 1) * PAGE_SIZE] = self.data[f * PAGE_SIZE:(f + 1) * PAGE_SIZE]
        return g

    def incref(self, frames: np.ndarray) -> None:
        np.add.at(self.refs, frames, 1)

    def decref(self, frames: np.ndarray) -> None:
        if len(frames) == 0:
            return
        np.subtract.at(self.refs, frames, 1)
        # each frame once, ascending; not np.unique, whose first call imports numpy.ma (14 ms,
        # at the end of every `ncpu arm64` run)
        for f in sorted(set(frames[self.refs[frames] == 0].tolist())):
            self._release(f)

    def decref_one(self, f: int) -> None:
        self.refs[f] -= 1
        if self.refs[f] == 0:
            self._release(f)

    def _release(self, f: int) -> None:
        key = self.frame_key.pop(f, None)
        if key is not None:
            del self.file_frames[key]
            self.dirty.discard(f)
        self._free.append(f)
        self.used -= 1
