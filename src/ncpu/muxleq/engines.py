"""MUXLEQ engines by name. Each module exposes
    run(state: MuxleqState, max_steps) -> MuxleqState
    run_batch(batch: MuxleqBatch, max_steps) -> MuxleqBatch
with the reference's contract; modules are imported on first use."""

from __future__ import annotations

import importlib
from types import ModuleType

ENGINES = {
    "reference": "ncpu.muxleq.reference",
    "compute": "ncpu.muxleq.compute",
    "fast": "ncpu.muxleq.fast",
    "neural": "ncpu.muxleq.neural",
}


class EngineUnavailable(LookupError):
    """No MUXLEQ engine of that name."""


def get_engine(mode: str) -> ModuleType:
    if mode not in ENGINES:
        raise EngineUnavailable(f"unknown MUXLEQ engine {mode!r}; choose one of {', '.join(ENGINES)}")
    return importlib.import_module(ENGINES[mode])
