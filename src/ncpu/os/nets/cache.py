"""The data cache's learned replacement: imitates Belady's MIN from past-only
features (`ncpu.os.nets.reuse`, Hawkeye-style). Keys are (pid, virtual
line) of `line_words` words; the cache is `sets` x `ways` (the kernel's
`HierarchyConfig`)."""

from __future__ import annotations

import numpy as np

from ncpu.os.hierarchy import HierarchyConfig, cache_keys
from ncpu.os.nets import reuse
from ncpu.os.nets.reuse import ReuseNet

CONFIG = HierarchyConfig()
CacheNet = ReuseNet


def keys_of(stream: np.ndarray) -> np.ndarray:
    return cache_keys(0, stream[:, 3], CONFIG.line_words) | (stream[:, 0] << 22)


def train(streams: list[np.ndarray], seed: int = 0, epochs: int = 4, log=None) -> ReuseNet:
    return reuse.train_part(streams, keys_of, CONFIG.cache_sets, CONFIG.cache_ways, seed, epochs, log, "cache")
