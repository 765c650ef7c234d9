"""Many initial states of one program, run in batches: a sweep.

Each state is written as a JSON object of overrides on a base state (the
program file's @init and the command's options), one object per line:

    {"R0": 5, "R1": 7}
    {"R0": -3, "N": 1, "mem": {"16": [5, 3, -8]}}

Keys: R0..R7, the flags N Z C V (0/1), pc, sp, and mem (address -> words
from there). The states are cut into shards of `batch_size` machines; each
shard is one `run_batch` on the engine, so the compute and fast engines run
a whole shard at once, and `ncpu.cluster` spreads the shards over workers.
"""

from __future__ import annotations

import json
from typing import Iterable

from ncpu.cluster import Job
from ncpu.machine.engines import get_engine
from ncpu.machine.program_file import FLAG_KEYS, REGISTER_KEYS
from ncpu.isa.semantics import wrap
from ncpu.machine.state import BatchState, MachineState

DEFAULT_BATCH_SIZE = 1024


class SweepError(ValueError):
    """A state line that cannot be read, with its line number."""


def parse_states(lines: Iterable[str], base: MachineState) -> list[MachineState]:
    """One state per non-blank line: `base` with that line's overrides."""
    states = []
    for number, line in enumerate(lines, 1):
        if line.strip():
            try:
                overrides = json.loads(line)
            except ValueError as error:
                raise SweepError(f"line {number}: not JSON ({error})") from None
            states.append(state_from_overrides(overrides, base, number))
    return states


def state_from_overrides(overrides: dict, base: MachineState, number: int = 1) -> MachineState:
    if not isinstance(overrides, dict):
        raise SweepError(f"line {number}: expected a JSON object of overrides")
    state = base.copy()
    for key, value in overrides.items():
        if key == "mem":
            _write_memory(state, value, number)
        elif key.upper() in REGISTER_KEYS:
            state.registers[int(key[1:])] = _word(value, key, number)
        elif key.upper() in FLAG_KEYS:
            if value not in (0, 1):
                raise SweepError(f"line {number}: flag {key} must be 0 or 1, got {value!r}")
            setattr(state, key.lower(), bool(value))
        elif key in ("pc", "sp"):
            if not isinstance(value, int) or value < 0:
                raise SweepError(f"line {number}: {key} must be an integer >= 0, got {value!r}")
            setattr(state, key, value)
        else:
            raise SweepError(f"line {number}: unknown key {key!r}; expected R0..R7, N, Z, C, V, pc, sp or mem")
    if state.sp >= len(state.memory):
        raise SweepError(f"line {number}: sp={state.sp} outside memory of {len(state.memory)} words")
    return state


def _word(value, what: str, number: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not -(1 << 31) <= value < (1 << 32):
        raise SweepError(f"line {number}: {what} must be a 32-bit integer, got {value!r}")
    return wrap(value)


def _write_memory(state: MachineState, blocks, number: int) -> None:
    if not isinstance(blocks, dict):
        raise SweepError(f"line {number}: mem must map addresses to lists of words")
    for address_text, words in blocks.items():
        try:
            address = int(address_text, 0)
        except ValueError:
            raise SweepError(f"line {number}: mem address {address_text!r} is not an integer") from None
        if not isinstance(words, list):
            raise SweepError(f"line {number}: mem {address_text} must be a list of words")
        if address < 0 or address + len(words) > len(state.memory):
            raise SweepError(f"line {number}: mem block {address}..{address + len(words) - 1} "
                             f"outside memory of {len(state.memory)} words")
        state.memory[address:address + len(words)] = [_word(w, f"mem {address_text}", number) for w in words]


def sweep_job(words: list[int], states: list[MachineState], mode: str, max_steps: int,
              batch_size: int = DEFAULT_BATCH_SIZE) -> Job:
    """Shards of `batch_size` states each: (mode, words, max_steps, BatchState)."""
    shards = [(mode, tuple(words), max_steps, BatchState.stack(states[start:start + batch_size]))
              for start in range(0, len(states), batch_size)]
    return Job("sweep", shards, run_sweep_shard)


def run_sweep_shard(context, shard: tuple) -> BatchState:
    mode, words, max_steps, batch = shard
    return get_engine(mode).run_batch(list(words), batch, max_steps)


def merge_sweep(results: list[BatchState]) -> list[MachineState]:
    """The final states, in input order."""
    return [state for batch in results for state in batch.unstack()]
