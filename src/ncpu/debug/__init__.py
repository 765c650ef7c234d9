"""The debugger over the ARM64 machine (and the nCPU machine): gdb's remote protocol,
snapshots and reverse execution, and analyses of a run's instruction trace.

Start with `target.py` (how stops and time travel are built on the
machine's public API and the CPU loop's hooks, arm64/cpu/hooks.py), then
`gdbstub.py` (the protocol) and `session.py` (one gdb-driven run, what
`ncpu arm64 -g PORT` calls).  The analyses of `ncpu debug TOOL` all read
the trace that `tracing.py` collects: trace (tracelog.py), profile,
coverage, sanitize, taint and reverse (over dataflow.py), ct, diff
(difference.py), fuzz; symbols.py reads ELF symbols and DWARF lines.
`ncpu_target.py` is the same debugger for nCPU programs.
"""

from .target import Event, Target

__all__ = ["Event", "Target"]
