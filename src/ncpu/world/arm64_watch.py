"""An ARM64 program run beside the ARM64 world model, step by step (`ncpu world watch --target arm64`).

The program is a text file of 32-bit instruction words in hex (one or more
a line; `#` or `//` starts a comment), loaded at `arm64.CODE` and run by our
ARM64 CPU from a random start state (`arm64.random_start`, from a seed)
until it leaves the code or `max_steps` pass. The model knows the
instruction forms of `arm64.random_program` (integer data processing and
branches); other instructions run, but the model has never seen them.
Faults are those of `arm64.inject`; the run goes on from the faulty state.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np

from ncpu.world import arm64
from ncpu.world.arm64_eval import anomaly_scores
from ncpu.world.calibrate import ErrorRates
from ncpu.world.model import WorldModel
from ncpu.world.watch import DEFAULT_SCORE, FaultNotApplied, WatchedStep

_WORD = re.compile(r"^(0x)?[0-9a-fA-F]{1,8}$")


def read_words(path: str | Path) -> list[int]:
    """The instruction words of a hex program file; ValueError names the first bad token."""
    words = []
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        for token in re.split(r"#|//", line, maxsplit=1)[0].split():
            if not _WORD.match(token):
                raise ValueError(f"{path}:{number}: {token!r} is not a 32-bit hex instruction word")
            words.append(int(token, 16))
    if not words:
        raise ValueError(f"{path}: no instruction words")
    return words


def watch_arm64(model: WorldModel, thresholds: dict[str, float], rates: ErrorRates, words: list[int],
                max_steps: int, faults: dict[int, str] | None = None, seed: int = 0,
                score: str = DEFAULT_SCORE) -> list[WatchedStep]:
    """Run and score every step, as `watch.watch` does for the nCPU machine."""
    from ncpu.arm64.cpu import disassemble

    faults = dict(faults or {})
    rng = random.Random(seed)
    applied: dict[int, str] = {}

    def after_step(t: int, before: list[int], word: int, after: list[int]):
        if t not in faults:
            return None
        bad = arm64.inject(faults[t], np.array(before, np.uint64), word, np.array(after, np.uint64), rng)
        if bad is None:
            raise FaultNotApplied(f"fault {faults[t]!r} cannot be injected at step {t}")
        applied[t] = faults[t]
        return bad

    trace = arm64.Stepper().record(words, arm64.random_start(random.Random(seed)), max_steps, after_step=after_step)
    missing = sorted(set(faults) - set(applied))
    if missing:
        raise FaultNotApplied(f"the run ended after {len(trace)} steps, before step {missing[0]}")
    scores = anomaly_scores(model, trace.states[:-1], trace.actions, trace.states[1:], rates)
    text = dict(disassemble(b"".join(w.to_bytes(4, "little") for w in words), arm64.CODE))
    steps = []
    for t in range(len(trace)):
        pc = int(trace.states[t, arm64.PC_COL])
        steps.append(WatchedStep(step=t, pc=pc, instruction=text.get(pc, f"{int(trace.actions[t]):#010x}"),
                                 scores={name: float(values[t]) for name, values in scores.items()},
                                 flagged=float(scores[score][t]) > thresholds[score], fault=applied.get(t)))
    return steps
