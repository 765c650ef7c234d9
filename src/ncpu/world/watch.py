"""One program run on the exact machine beside the world model, step by step.

Faults may be injected at chosen steps (`ncpu.world.faults`); the machine
then goes on from the faulty state, as a real faulty machine would. Every
step gets the anomaly scores of `evaluate.anomaly_scores` and is flagged
when a score passes the threshold calibrated on clean held-out runs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from ncpu.isa import decode, format_instruction
from ncpu.machine.state import MachineState
from ncpu.world.calibrate import ErrorRates
from ncpu.world.evaluate import Transitions, anomaly_scores
from ncpu.world.faults import inject, write_raw
from ncpu.world.model import WorldModel
from ncpu.world.traces import raw_state, record

# The score that flags steps unless told otherwise: the calibrated surprise,
# whose AUROC is the best of the five for every fault type (docs/world.md).
DEFAULT_SCORE = "calibrated"


@dataclass
class WatchedStep:
    step: int
    pc: int
    instruction: str
    scores: dict[str, float]  # every score of `evaluate.anomaly_scores`
    flagged: bool
    fault: str | None  # the fault injected at this step, if any


class FaultNotApplied(ValueError):
    """A requested fault cannot happen at its step (e.g. `alu` on a branch)."""


def watch(model: WorldModel, thresholds: dict[str, float], rates: ErrorRates, words: list[int], state: MachineState,
          max_steps: int, faults: dict[int, str] | None = None, seed: int = 0,
          score: str = DEFAULT_SCORE) -> list[WatchedStep]:
    """Run and score every step; `faults` maps a step index to a fault kind.
    A step is flagged when its `score` (one of `evaluate.SCORES`) passes its threshold."""
    faults = dict(faults or {})
    rng = random.Random(seed)
    applied: dict[int, str] = {}

    def after_step(t: int, before: list[int], action: list[int], machine: MachineState) -> None:
        if t not in faults:
            return
        after = np.array(raw_state(machine), np.int64)
        bad = inject(faults[t], np.array(before, np.int64), np.array(action, np.int64), after, rng)
        if bad is None:
            raise FaultNotApplied(f"fault {faults[t]!r} cannot be injected at step {t}")
        write_raw(machine, bad)
        applied[t] = faults[t]

    trace = record(words, state, max_steps, after_step=after_step)
    missing = sorted(set(faults) - set(applied))
    if missing:
        raise FaultNotApplied(f"the run ended after {len(trace)} steps, before step {missing[0]}")
    scores = anomaly_scores(model, Transitions.of([trace]), rates)
    steps = []
    for t in range(len(trace)):
        pc = int(trace.states[t, 12])
        steps.append(WatchedStep(
            step=t, pc=pc, instruction=format_instruction(decode(words[pc])),
            scores={name: float(values[t]) for name, values in scores.items()},
            flagged=float(scores[score][t]) > thresholds[score], fault=applied.get(t)))
    return steps




def plot(steps: list[WatchedStep], thresholds: dict[str, float], path: str, title: str,
         score: str = DEFAULT_SCORE) -> None:
    """The per-step error trace with the threshold and the injected faults, as a PNG."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [s.step for s in steps]
    y = [s.scores[score] for s in steps]
    fig, ax = plt.subplots(figsize=(10, 3.6), dpi=120)
    ax.plot(x, y, lw=0.9, color="#2a6f97", label=f"{score} score")
    ax.axhline(thresholds[score], color="#c1121f", ls="--", lw=0.9, label="anomaly threshold")
    flagged = [s for s in steps if s.flagged]
    ax.scatter([s.step for s in flagged], [s.scores[score] for s in flagged], s=14, color="#c1121f",
               zorder=3, label="flagged")
    for s in steps:
        if s.fault:
            ax.axvline(s.step, color="#ff9f1c", lw=1.2, alpha=0.8)
            ax.annotate(s.fault, (s.step, ax.get_ylim()[1]), rotation=90, va="top", ha="right",
                        fontsize=7, color="#b36200")
    ax.set_yscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel(score + " score (log)")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
