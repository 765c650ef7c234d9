"""Loop trip counts speculated from latents, verified by exact execution.

A *loop branch* is the conditional branch that decides whether a loop goes
on, found from the program's code: a backward conditional branch (target <=
its own pc; the loop goes on while it is taken: a bottom-tested loop), or a
forward conditional branch that jumps past a backward jump to it or before
it (the loop goes on while it is not taken: a top-tested `while`). At every
execution of a loop branch, the quantity to speculate is the loop's
*remaining trip count*: how many more times, from this one on, the branch
will keep the loop going before it first leaves it. Knowing it when the
loop is entered means knowing every outcome of that branch until the loop
exits: the control flow of the rest of the loop, many steps ahead.

The trip head is a probe of the world model: a small MLP that reads the
context encoder's latent of the state at the latch (detached: the head
never shapes the latent space), the latch instruction and the instruction
executed just before it (the one that set the flags the latch tests), and
classifies the remaining count as 0, 1, ..., CAP-1 or "CAP or more". It is
trained on latches of training programs only and judged on held-out ones;
runs that end before the loop exits give no example (their count is unknown).

Speculate-then-verify over loops: at each loop's first latch the head's
count fixes the loop's remaining control flow; exact execution verifies it
when the loop exits. A right count lets every step until the exit run as
one speculated block with one verification; a wrong one is caught at the
first latch where speculation and execution part.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from ncpu.isa import decode
from ncpu.world.features import ACTION_BITS, CONDITIONAL, action_bits, state_bits
from ncpu.world.model import WorldModel, _mlp, fit_head
from ncpu.world.traces import Trace

CAP = 16  # counts of CAP or more are one class


@dataclass(frozen=True)
class LoopView:
    """How trip counting reads one target machine's traces: its loop branches
    (from the program's words: pc -> whether the loop goes on when the branch
    is taken), the pc column of its raw states, each step's branch target
    (from the raw action and the pc), and its state and action bits."""

    loop_branches: Callable[[list[int]], dict[int, bool]]
    pc_column: int
    branch_target: Callable[[np.ndarray, np.ndarray], np.ndarray]  # (raw actions [T, ...], pcs [T]) -> targets [T]
    state_bits: Callable[[np.ndarray], np.ndarray]
    action_bits: Callable[[np.ndarray], np.ndarray]
    action_width: int  # bits of one encoded action


@dataclass
class Latches:
    """Every latch execution with a known remaining count, in some traces."""

    before: np.ndarray  # raw states at the latch, int64[N, 22]
    latch: np.ndarray  # raw latch actions, int64[N, 8]
    previous: np.ndarray  # raw action of the step before (zeros at step 0), int64[N, 8]
    remaining: np.ndarray  # remaining trip count, int64[N]
    first: np.ndarray  # bool[N]: the first latch of its loop instance (the loop is entered here)
    steps_to_exit: np.ndarray  # steps from this latch to the step after the loop's exit, int64[N]

    def __len__(self) -> int:
        return len(self.remaining)

    @classmethod
    def of(cls, traces: list, view: LoopView | None = None) -> Latches:
        """The latches of `traces` of the nCPU machine, or of another target read through `view`."""
        view = view or NCPU_LOOPS
        rows: dict[str, list] = {k: [] for k in ("before", "latch", "previous", "remaining", "first", "exit")}
        sample = traces[0] if traces else None
        state_shape = sample.states.shape[1:] if sample else (22,)
        action_shape = sample.actions.shape[1:] if sample else (8,)
        for trace in traces:
            for j, count, first, exit_step in _latch_counts(trace, view):
                rows["before"].append(trace.states[j])
                rows["latch"].append(trace.actions[j])
                rows["previous"].append(trace.actions[j - 1] if j else np.zeros_like(trace.actions[0]))
                rows["remaining"].append(count)
                rows["first"].append(first)
                rows["exit"].append(exit_step + 1 - j)
        empty = len(rows["remaining"]) == 0
        state_type, action_type = (sample.states.dtype, sample.actions.dtype) if sample else (np.int64, np.int64)
        return cls(np.array(rows["before"], state_type).reshape(-1, *state_shape),
                   np.array(rows["latch"], action_type).reshape(-1, *action_shape),
                   np.array(rows["previous"], action_type).reshape(-1, *action_shape),
                   np.array(rows["remaining"], np.int64),
                   np.array(rows["first"], bool), np.array(rows["exit"] if not empty else [], np.int64))


def loop_branches(words: list[int]) -> dict[int, bool]:
    """pc of each loop branch of a program -> whether the loop goes on when it is taken."""
    program = [decode(word) for word in words]
    jumps = [(pc, ins.imm) for pc, ins in enumerate(program) if ins.op.format == "jump" and ins.op.mnemonic != "CALL"]
    out = {}
    for pc, ins in enumerate(program):
        if ins.op.mnemonic not in CONDITIONAL:
            continue
        if ins.imm <= pc:
            out[pc] = True
        elif any(pc < q < ins.imm and target <= pc for q, target in jumps):
            out[pc] = False
    return out


NCPU_LOOPS = LoopView(loop_branches, 12, lambda actions, pcs: actions[:, 4], state_bits, action_bits, ACTION_BITS)


def _latch_counts(trace: Trace, view: LoopView):
    """(step, remaining count, first of its instance, step of the exit) of every
    loop-branch execution whose loop exits within the trace."""
    stays = view.loop_branches(trace.words)
    pcs = trace.states[:-1, view.pc_column]
    taken = trace.states[1:, view.pc_column] == view.branch_target(trace.actions, pcs)
    by_pc: dict[int, list[int]] = {}
    for j in range(len(trace)):
        if int(pcs[j]) in stays:
            by_pc.setdefault(int(pcs[j]), []).append(j)
    for pc, steps in by_pc.items():
        goes_on = taken[steps] == stays[pc]
        exit_index = None  # index into `steps` of the next exit, scanning backwards
        for i in range(len(steps) - 1, -1, -1):
            if not goes_on[i]:
                exit_index = i
            if exit_index is None:
                continue  # the loop does not exit within the trace: count unknown
            first = i == 0 or not goes_on[i - 1]
            yield steps[i], exit_index - i, first, steps[exit_index]


class TripHead(nn.Module):
    """(latent of the state at the latch, latch action, previous action) -> count logits [CAP+1]."""

    def __init__(self, latent: int, hidden: int = 256, action_width: int = ACTION_BITS):
        super().__init__()
        self.net = _mlp([latent + 2 * action_width, hidden, hidden, CAP + 1])

    def forward(self, z: torch.Tensor, latch: torch.Tensor, previous: torch.Tensor) -> torch.Tensor:
        return self.net(torch.cat([z, latch * 2 - 1, previous * 2 - 1], -1))


def _inputs(model: WorldModel, latches: Latches, view: LoopView) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    with torch.no_grad():
        z = model.encode(torch.from_numpy(view.state_bits(latches.before)))
    return z, torch.from_numpy(view.action_bits(latches.latch)), torch.from_numpy(view.action_bits(latches.previous))


def classes(remaining: np.ndarray) -> np.ndarray:
    return np.minimum(remaining, CAP)


def train_trip_head(model: WorldModel, traces: list, steps: int = 1500, batch: int = 256,
                    seed: int = 0, view: LoopView | None = None) -> TripHead:
    """Fit a trip head on the latches of `traces` (training programs; another target's through `view`)."""
    view = view or NCPU_LOOPS
    latches = Latches.of(traces, view)
    if not len(latches):
        raise ValueError("no loop exits in the training traces")
    torch.manual_seed(seed)
    head = TripHead(model.config.latent, action_width=view.action_width)
    z, latch, previous = _inputs(model, latches, view)
    target = torch.from_numpy(classes(latches.remaining))
    return fit_head(head, lambda pick: F.cross_entropy(head(z[pick], latch[pick], previous[pick]), target[pick]),
                    len(target), steps, batch, seed)


@torch.no_grad()
def predict_counts(model: WorldModel, head: TripHead, latches: Latches, view: LoopView | None = None) -> np.ndarray:
    return head(*_inputs(model, latches, view or NCPU_LOOPS)).argmax(-1).numpy()


def _accuracy(predicted: np.ndarray, truth: np.ndarray) -> float:
    return float((predicted == classes(truth)).mean()) if len(truth) else 0.0


def trip_report(model: WorldModel, head: TripHead, majority: int, latches: Latches,
                view: LoopView | None = None) -> dict:
    """Accuracy at every latch and at loop entries, by how far ahead the
    exit lies, against always guessing the training set's most common count;
    and the speculate-then-verify tally over loop instances."""
    predicted = predict_counts(model, head, latches, view)
    truth = latches.remaining
    out = {"latches": len(truth), "accuracy": _accuracy(predicted, truth),
           "majority_accuracy": _accuracy(np.full_like(truth, majority), truth),
           "majority_count": int(majority)}
    entry = latches.first
    out["entries"] = int(entry.sum())
    out["entry_accuracy"] = _accuracy(predicted[entry], truth[entry])
    out["entry_majority_accuracy"] = _accuracy(np.full(int(entry.sum()), majority), truth[entry])
    # How far ahead: the exit lies `steps_to_exit` steps after the latch.
    ranges = {"exit in 1-4 steps": (1, 4), "5-16": (5, 16), "17-64": (17, 64), "65+": (65, 1 << 62)}
    out["by_distance"] = {}
    for name, (low, high) in ranges.items():
        mask = entry & (latches.steps_to_exit >= low) & (latches.steps_to_exit <= high)
        out["by_distance"][name] = {"entries": int(mask.sum()), "accuracy": _accuracy(predicted[mask], truth[mask])}
    # Speculate-then-verify at loop entries: a right count covers every step
    # to the exit with one verification (counts >= CAP are never "right":
    # the class does not fix the exit).
    right = entry & (predicted == truth) & (truth < CAP)
    covered = int(latches.steps_to_exit[right].sum())
    out["speculate_verify"] = {"loop_instances": int(entry.sum()), "instances_right": int(right.sum()),
                               "steps_in_loops": int(latches.steps_to_exit[entry].sum()),
                               "steps_covered": covered, "sequential_steps_saved": covered - int(right.sum())}
    return out


def majority_count(traces: list, view: LoopView | None = None) -> int:
    counts = classes(Latches.of(traces, view).remaining)
    return int(np.bincount(counts, minlength=CAP + 1).argmax())
