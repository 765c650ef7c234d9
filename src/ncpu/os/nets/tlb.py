"""The TLB's learned replacement: which (pid, virtual page) translation to
drop, imitating Belady's MIN from past-only features (`ncpu.os.nets.reuse`).
The TLB is fully associative (one set) of `tlb_entries` entries (the
kernel's `HierarchyConfig`)."""

from __future__ import annotations

import numpy as np

from ncpu.os.hierarchy import HierarchyConfig, tlb_keys
from ncpu.os.nets import reuse
from ncpu.os.nets.reuse import ReuseNet

CONFIG = HierarchyConfig()
TLBNet = ReuseNet


def keys_of(stream: np.ndarray) -> np.ndarray:
    return tlb_keys(0, stream[:, 3]) | (stream[:, 0] << 16)


def train(streams: list[np.ndarray], seed: int = 0, epochs: int = 4, log=None) -> ReuseNet:
    return reuse.train_part(streams, keys_of, 1, CONFIG.tlb_entries, seed, epochs, log, "tlb")
