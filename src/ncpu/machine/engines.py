"""Engines by name: one semantics, several ways to run it.

Each engine is a module exposing
    run(words, state: MachineState, max_steps) -> MachineState
    run_batch(words, batch: BatchState, max_steps) -> BatchState
with the reference engine's contract. Modules are imported on first use,
so asking for 'compute' does not import torch and 'fast' does not compile
numba kernels.
"""

from __future__ import annotations

import importlib
from types import ModuleType


class EngineUnavailable(LookupError):
    """The engine is unknown, or its module is not part of this install yet."""


# Engine name -> module implementing it.
ENGINES: dict[str, str] = {
    "reference": "ncpu.machine.reference",
    "compute": "ncpu.machine.compute",
    "fast": "ncpu.machine.fast",
    "neural": "ncpu.machine.neural",
}

_MISSING = {"neural": "the neural engine arrives with the neural ALU (issue 3)"}


def get_engine(mode: str) -> ModuleType:
    """The module for engine `mode`; raises EngineUnavailable otherwise."""
    module_name = ENGINES.get(mode)
    if module_name is None:
        raise EngineUnavailable(f"unknown engine {mode!r}; choose one of {', '.join(ENGINES)}")
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        # Only the engine's own module being absent means "not yet"; a missing
        # dependency inside it is a real error and propagates.
        if error.name != module_name or mode not in _MISSING:
            raise
        raise EngineUnavailable(_MISSING[mode]) from None


def available_engines() -> list[str]:
    """Names whose module imports in this install."""
    names = []
    for name in ENGINES:
        try:
            get_engine(name)
        except EngineUnavailable:
            continue
        names.append(name)
    return names
