"""The kernel's decisions, classical or neural, behind one interface.

`ClassicalPolicies` is the reference: the lowest-numbered pending unmasked
interrupt line first, a page-table lookup, the first free frame, round robin,
LRU replacement in the TLB and the data cache, a stride prefetcher.
`NeuralPolicies` (ncpu.os.neural) answers the same questions with trained
networks; every answer passes a guard that checks it and, when it is wrong
or unusable, replaces it by the classical answer and counts an override. So
policies change figures (decisions, overrides), never results.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ncpu.os.heap import Heap, first_fit
from ncpu.os.memory import UNMAPPED, OutOfFrames, PhysicalMemory
from ncpu.os.stride import StridePrefetcher
from ncpu.os.replacement import lru_victim

# Interrupt lines, highest priority first (line 0 is the most urgent).
LINES = ("page_fault", "syscall", "timer", "wakeup")
NUM_LINES = 8  # the controller's width; lines past LINES are never raised here


def lowest_line(pending: int, mask: int) -> int:
    """The highest-priority pending unmasked line (lowest number), -1 if none."""
    active = pending & ~mask & ((1 << NUM_LINES) - 1)
    return (active & -active).bit_length() - 1 if active else -1


class ClassicalPolicies:
    name = "classical"

    decides_memory = False  # LRU and stride need no access stream (the kernel skips its replay)

    def __init__(self) -> None:
        self.decisions: Counter = Counter()
        self.overrides: Counter = Counter()
        self.stride = StridePrefetcher()
        self.flagged: dict[int, int] = {}  # pid -> instructions run when the watchdog flagged it
        self.heap = Heap()
        self.heap_trace: list | None = None  # set to a list to record the kernel heap's requests

    def interrupt(self, pending: int, mask: int) -> int:
        self.decisions["interrupt"] += 1
        return lowest_line(pending, mask)

    def translate(self, table: np.ndarray, vpns: np.ndarray) -> np.ndarray:
        """Frames of virtual pages `vpns` (UNMAPPED where none)."""
        self.decisions["mmu"] += len(vpns)
        return table[vpns]

    def allocate(self, memory: PhysicalMemory) -> int:
        self.decisions["allocate"] += 1
        free = np.nonzero(~memory.used)[0]
        if not len(free):
            raise OutOfFrames
        return int(free[0])

    def assemble(self, source: str):
        """The loader's assembler: text -> Program (raises AssemblerError)."""
        from ncpu.isa.assembler import assemble

        program = assemble(source)
        self.decisions["assemble"] += len(program.words)
        return program

    def pick(self, ready: list) -> int:
        """Index into `ready` (kept in arrival order) of the process to run next."""
        self.decisions["schedule"] += 1
        return 0

    # -- the memory hierarchy (ncpu.os.hierarchy) ----------------------------

    def tlb_scores(self, keys: np.ndarray, pcs: list, kinds: list) -> np.ndarray:
        """A score per access, kept with its entry for `tlb_victim` (unused by LRU)."""
        return np.zeros(len(keys), np.float32)

    def cache_scores(self, keys: np.ndarray, pcs: list, kinds: list) -> np.ndarray:
        return np.zeros(len(keys), np.float32)

    def tlb_victim(self, entries) -> int:
        """The key to evict from a full set; `entries` are (key, score), least recent first."""
        self.decisions["tlb"] += 1
        return lru_victim(entries)

    def cache_victim(self, entries) -> int:
        self.decisions["cache"] += 1
        return lru_victim(entries)

    def prefetch(self, pid: int, pcs: list, lines: np.ndarray, kinds: list, line_limit: int) -> np.ndarray:
        """The line to prefetch after each access (-1: none); `line_limit` lines in the address space."""
        wanted = np.array([self.stride.propose(pid, pc, line, kind)
                           for pc, line, kind in zip(pcs, lines.tolist(), kinds)], np.int64)
        wanted[(wanted < 0) | (wanted >= line_limit)] = -1  # a stride off either end of memory
        self.decisions["prefetch"] += int((wanted >= 0).sum())
        return wanted
    def watch(self, process, memory: np.ndarray) -> None:
        """After each slice of a running process. The classical watchdog is the
        step budget alone, which the kernel enforces under every policy."""

    def heap_alloc(self, pid: int, units: int) -> None:
        """A process's page-table block in the kernel heap (statistics only)."""
        self.decisions["heap"] += 1
        if self.heap_trace is not None:
            self.heap_trace.append(("alloc", pid, units))
        self.heap.alloc(pid, units, self.place)

    def heap_free(self, pid: int) -> None:
        if self.heap_trace is not None:
            self.heap_trace.append(("free", pid))
        self.heap.free(pid)

    def place(self, heap: Heap, fitting: list, length: int) -> int:
        return first_fit(heap, fitting, length)


__all__ = ["ClassicalPolicies", "LINES", "NUM_LINES", "UNMAPPED", "lowest_line"]
