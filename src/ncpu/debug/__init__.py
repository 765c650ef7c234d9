"""The debugger over the ARM64 machine: gdb's remote protocol, snapshots and reverse execution.

Start with `target.py` (how stops and time travel are built on the
machine's public API), then `gdbstub.py` (the protocol) and `session.py`
(one gdb-driven run, what `ncpu arm64 -g PORT` calls).
"""

from .target import Event, Target

__all__ = ["Event", "Target"]
