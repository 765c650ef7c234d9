"""Engines by name: one semantics, several ways to run it.

Each engine is a module exposing
    run(words, state: MachineState, max_steps) -> MachineState
    run_batch(words, batch: BatchState, max_steps) -> BatchState
with the reference engine's contract, and optionally
    warm_up() -> None
which makes the one-time costs (compiling, building circuits, first calls)
so that a caller can report start-up apart from running. Modules are
imported on first use, so asking for 'compute' does not import torch.
"""

from __future__ import annotations

import importlib
from types import ModuleType


class EngineUnavailable(LookupError):
    """No engine of that name."""


# Engine name -> module implementing it.
ENGINES: dict[str, str] = {
    "reference": "ncpu.machine.reference",
    "compute": "ncpu.machine.compute",
    "fast": "ncpu.machine.fast",
    "neural": "ncpu.machine.neural",
}


def get_engine(mode: str) -> ModuleType:
    """The module for engine `mode`; raises EngineUnavailable otherwise."""
    module_name = ENGINES.get(mode)
    if module_name is None:
        raise EngineUnavailable(f"unknown engine {mode!r}; choose one of {', '.join(ENGINES)}")
    return importlib.import_module(module_name)


def warm_up(engine: ModuleType) -> None:
    """The engine's one-time work, if it has any."""
    prepare = getattr(engine, "warm_up", None)
    if prepare is not None:
        prepare()
