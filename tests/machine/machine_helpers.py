"""Shared helpers for the machine tests (engines by name, batch comparison)."""

from __future__ import annotations

import numpy as np

from ncpu.machine.engines import get_engine
from ncpu.machine.state import BatchState

ENGINE_NAMES = ("reference", "compute", "fast")
FIELDS = ("registers", "memory", "flags", "pc", "sp", "steps", "halted", "trapped")


def engine(name: str):
    return get_engine(name)


def assert_batches_equal(expected: BatchState, actual: BatchState, context: str = "") -> None:
    """Every field of every machine equal; the message names the first
    machine and field that differ."""
    for name in FIELDS:
        want, got = getattr(expected, name), getattr(actual, name)
        assert want.shape == got.shape, f"{context}: {name} shape {want.shape} != {got.shape}"
        if not np.array_equal(want, got):
            diff = np.nonzero((want != got).reshape(want.shape[0], -1).any(axis=1))[0]
            i = int(diff[0])
            raise AssertionError(f"{context}: machine {i} {name} differs: want {want[i].tolist()}"
                                 f" got {got[i].tolist()} ({len(diff)} machine(s) differ)")
