"""What prefetchers watch, and the classical one: the stride prefetcher.

An event is an instruction (program, pc) touching a cache line other than
the one it touched last (its own stream moved on). `DeltaHistory` keeps,
per instruction and per process, the last line deltas (bucketed:
-MAX_DELTA..MAX_DELTA, "far", "none"); the stride prefetcher (a reference
prediction table, one entry per instruction) proposes line + delta when the
instruction's last two deltas agree. The learned prefetcher
(`ncpu.os.nets.prefetch`) reads the same histories. No torch here: the
classical policies do not load it.
"""

from __future__ import annotations

MAX_DELTA = 8
FAR, NONE = 2 * MAX_DELTA + 1, 2 * MAX_DELTA + 2  # input buckets beyond the deltas
BUCKETS = 2 * MAX_DELTA + 3
HISTORY = 4


def bucket(delta: int) -> int:
    return delta + MAX_DELTA if -MAX_DELTA <= delta <= MAX_DELTA else FAR


class DeltaHistory:
    """Per-process and per-instruction line-delta histories: the events and their inputs."""

    def __init__(self):
        self.pcs: dict = {}  # instruction -> [last line, deltas (most recent last)]
        self.processes: dict = {}  # pid -> [last line, deltas]

    def observe(self, pid: int, pc, line: int, kind: int):
        """Inputs (bucket ids) if this access is an event of its instruction, else None."""
        process = self.processes.setdefault(pid, [None, []])
        if process[0] is not None and line != process[0]:
            process[1] = (process[1] + [bucket(line - process[0])])[-HISTORY:]
        process[0] = line
        own = self.pcs.get(pc)
        if own is None:
            self.pcs[pc] = [line, []]
            return None
        if line == own[0]:
            return None
        own[1] = (own[1] + [bucket(line - own[0])])[-HISTORY:]
        own[0] = line
        pad = lambda h: [NONE] * (HISTORY - len(h)) + h  # noqa: E731
        return pad(own[1]) + pad(process[1]) + [BUCKETS + kind]

    def last_deltas(self, pc) -> list[int]:
        return self.pcs[pc][1]


class StridePrefetcher:
    """Classical: propose line + delta when an instruction's last two deltas agree."""

    def __init__(self):
        self.history = DeltaHistory()

    def propose(self, pid: int, pc, line: int, kind: int) -> int:
        """The line to prefetch, or -1."""
        if self.history.observe(pid, pc, line, kind) is None:
            return -1
        deltas = self.history.last_deltas(pc)
        if len(deltas) >= 2 and deltas[-1] == deltas[-2] and deltas[-1] != FAR:
            return line + deltas[-1] - MAX_DELTA
        return -1
