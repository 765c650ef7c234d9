"""Comparing MUXLEQ machines and batches field by field."""

from __future__ import annotations

from ncpu.muxleq.state import MuxleqBatch, MuxleqState


def same_machine(got: MuxleqState, want: MuxleqState) -> list[str]:
    """Names of the fields where two machines differ."""
    diffs = [name for name in ("pc", "steps", "halted", "input", "end_of_input", "output")
             if getattr(got, name) != getattr(want, name)]
    if (got.memory != want.memory).any():
        diffs.append("memory")
    return diffs


def same_batch(got: MuxleqBatch, want: MuxleqBatch) -> dict[int, list[str]]:
    """Machine index -> differing fields, for every machine that differs."""
    out = {}
    for i, (g, w) in enumerate(zip(got.unstack(), want.unstack())):
        diffs = same_machine(g, w)
        if diffs:
            out[i] = diffs
    return out
