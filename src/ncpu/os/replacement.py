"""Replacement in a set-associative structure (the TLB, the data cache): the
simulation with a pluggable victim choice, LRU, and Belady's MIN, the oracle.

A structure has `sets` sets of `ways` entries; a key lives in set
`key % sets` (the TLB is one set: fully associative). Every access inserts
its key (no bypass); when the set is full a victim goes. LRU evicts the
least recently used entry. MIN (Belady 1966) evicts the entry used again
furthest in the future, which no policy can beat (with insertion forced,
as here): it needs the whole trace, so it is the yardstick, and its
decisions are the labels the learned policies imitate from the past alone.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

NEVER = 1 << 62


def next_uses(keys: np.ndarray) -> np.ndarray:
    """For each access, the index of the next access to the same key (NEVER if none)."""
    following = np.full(len(keys), NEVER, np.int64)
    last: dict[int, int] = {}
    for index in range(len(keys) - 1, -1, -1):
        key = int(keys[index])
        following[index] = last.get(key, NEVER)
        last[key] = index
    return following


def belady_hits(keys: np.ndarray, sets: int, ways: int) -> np.ndarray:
    """Hit (True) or miss of every access under MIN."""
    following = next_uses(keys)
    resident = [dict() for _ in range(sets)]  # key -> its next use
    hits = np.zeros(len(keys), np.bool_)
    for index, key in enumerate(keys.tolist()):
        entries = resident[key % sets]
        if key in entries:
            hits[index] = True
        elif len(entries) >= ways:
            del entries[max(entries, key=entries.__getitem__)]
        entries[key] = following[index]
    return hits


def belady_labels(keys: np.ndarray, sets: int, ways: int) -> np.ndarray:
    """1 where MIN keeps the key until its next use (a cache-friendly access), else 0."""
    hits = belady_hits(keys, sets, ways)
    following = next_uses(keys)
    labels = np.zeros(len(keys), np.float32)
    reused = following != NEVER
    labels[reused] = hits[following[reused]]
    return labels


class SetAssociative:
    """The structure itself: per set, its keys in LRU order (least recent first)
    with the score the policy gave each at its last access."""

    def __init__(self, sets: int, ways: int):
        self.sets, self.ways = sets, ways
        self.entries = [OrderedDict() for _ in range(sets)]

    def access(self, key: int, score: float, choose) -> bool:
        """Touch `key`; on a miss in a full set `choose(entries)` names the victim
        (entries: the set's (key, score) pairs, least recent first)."""
        entries = self.entries[key % self.sets]
        if key in entries:
            entries.move_to_end(key)
            entries[key] = score
            return True
        if len(entries) >= self.ways:
            del entries[choose(entries)]
        entries[key] = score
        return False

    def __contains__(self, key: int) -> bool:
        return key in self.entries[key % self.sets]


def lru_victim(entries: OrderedDict) -> int:
    return next(iter(entries))


def simulate(keys: np.ndarray, sets: int, ways: int, scores: np.ndarray | None = None, choose=lru_victim) -> np.ndarray:
    """Hits of every access with victim choice `choose` (LRU by default)."""
    structure = SetAssociative(sets, ways)
    scores = np.zeros(len(keys), np.float32) if scores is None else scores
    return np.array([structure.access(key, score, choose) for key, score in zip(keys.tolist(), scores.tolist())],
                    np.bool_)
