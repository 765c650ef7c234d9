"""The memory hierarchy neurOS simulates for its statistics: a TLB in front of
the page-table walk, a data cache, and a prefetcher filling a small buffer
beside the cache. Policies decide what the TLB and the cache evict and what
to prefetch; none of it changes what a program computes.

Every data access of a slice (`ncpu.os.trace`) goes, in order, through:
- the TLB: fully associative, `tlb_entries` entries, keyed by (pid, virtual
  page) as an address-space-tagged TLB is, so entries survive context
  switches; a miss is a page-table walk;
- the data cache: `cache_sets` x `cache_ways` lines of `line_words` words,
  keyed by (pid, virtual line) (virtually indexed, tagged with the process);
- the prefetch buffer: `prefetch_entries` lines, first in first out. A
  demand miss in the cache whose line is in the buffer is a useful
  prefetch (the line then moves to the cache as any miss does).
A prefetch is issued only for a line in neither the cache nor the buffer.

Default sizes (why: `docs/neuros.md`): a 4-entry TLB, an 8 x 4 cache of
4-word lines (128 words), an 8-line prefetch buffer.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass

import numpy as np

from ncpu.os.memory import PAGE_WORDS
from ncpu.os.replacement import SetAssociative


@dataclass(frozen=True)
class HierarchyConfig:
    tlb_entries: int = 4
    cache_sets: int = 8
    cache_ways: int = 4
    line_words: int = 4
    prefetch_entries: int = 8


def tlb_keys(pid: int, addresses: np.ndarray) -> np.ndarray:
    return (np.int64(pid) << 16) | (addresses // PAGE_WORDS)


def cache_keys(pid: int, addresses: np.ndarray, line_words: int) -> np.ndarray:
    return (np.int64(pid) << 22) | (addresses // line_words)


class Hierarchy:
    def __init__(self, policies, config: HierarchyConfig = HierarchyConfig()):
        self.policies = policies
        self.config = config
        self.tlb = SetAssociative(1, config.tlb_entries)
        self.cache = SetAssociative(config.cache_sets, config.cache_ways)
        self.buffer: OrderedDict = OrderedDict()
        self.stats: Counter = Counter()

    def slice(self, pid: int, program: int, mem_size: int, accesses: list[tuple[int, int, int]]) -> None:
        """Run one slice's accesses (pc, address, kind) of process `pid` through the hierarchy."""
        if not accesses:
            return
        config, policies, stats = self.config, self.policies, self.stats
        table = np.array(accesses, np.int64)
        pcs = [(program, pc) for pc in table[:, 0].tolist()]
        kinds = table[:, 2].tolist()
        pages = tlb_keys(pid, table[:, 1])
        lines = table[:, 1] // config.line_words
        keys = cache_keys(pid, table[:, 1], config.line_words)
        tlb_scores = policies.tlb_scores(pages, pcs, kinds)
        cache_scores = policies.cache_scores(keys, pcs, kinds)
        prefetches = policies.prefetch(pid, pcs, lines, kinds, -(-mem_size // config.line_words))
        for index, key in enumerate(keys.tolist()):
            hit = self.tlb.access(int(pages[index]), float(tlb_scores[index]), policies.tlb_victim)
            stats["tlb_hits" if hit else "tlb_misses"] += 1
            if self.cache.access(key, float(cache_scores[index]), policies.cache_victim):
                stats["cache_hits"] += 1
            else:
                stats["cache_misses"] += 1
                if self.buffer.pop(key, None) is not None:
                    stats["prefetch_useful"] += 1
            target = int(prefetches[index])
            if target >= 0:
                fetch = (pid << 22) | target
                if fetch not in self.cache and fetch not in self.buffer:
                    self.buffer[fetch] = True
                    stats["prefetch_issued"] += 1
                    if len(self.buffer) > config.prefetch_entries:
                        self.buffer.popitem(last=False)
