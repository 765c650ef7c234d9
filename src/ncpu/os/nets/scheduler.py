"""The scheduler as a network: predict each ready process's remaining run time,
run the one with the least (learned shortest-remaining-time-first).

Oracle: SRPT, which knows every job's remaining instructions and is optimal
for mean turnaround on one processor. The network sees only what the kernel
can see: instructions run so far, slices and system calls made so far, and
the program's static shape (its size, backward branches, memory size, step
budget, the inputs in R0..R3). Its target is log(1 + remaining
instructions), taken from solo runs of the training jobs.

Guard (counted as an override): a ready process that has waited more than
STARVE ticks since it last ran is run instead of the network's choice, so
no job starves however wrong the prediction (round robin's fairness, bounded).

Training and evaluation replay solo traces in `simulate`, which schedules
exactly as the kernel does (same queue order, same tick arithmetic, same
features); a test checks it against the kernel on held-out mixes.
"""

from __future__ import annotations

import math
import random

import numpy as np
import torch
from torch import nn

from ncpu.isa.opcodes import BY_CODE
from ncpu.isa.semantics import wrap
from ncpu.os.nets.fitting import fit_by_steps

FEATURES = 12
HIDDEN = 32
STARVE = 48  # ticks a ready process may wait before the guard runs it


class SchedulerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(FEATURES, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, HIDDEN), nn.ReLU(),
                                    nn.Linear(HIDDEN, 1))

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.layers(features).squeeze(-1)

    def predict(self, features: np.ndarray) -> np.ndarray:
        """The same function as forward, in numpy: one decision per tick costs
        microseconds, not torch's per-call overhead."""
        x = np.asarray(features, np.float32)
        linears = [layer for layer in self.layers if isinstance(layer, nn.Linear)]
        for index, layer in enumerate(linears):
            x = x @ layer.weight.detach().numpy().T + layer.bias.detach().numpy()
            if index < len(linears) - 1:
                x = np.maximum(x, 0)
        return x[:, 0]


def static_features(image) -> np.ndarray:
    """What the program file says before it runs: size, loops, memory, budget, inputs."""
    backward = 0
    for index, word in enumerate(image.words):
        op = BY_CODE.get(word >> 24)
        if op is not None and op.format == "jump" and op.mnemonic != "CALL" and (word & 0x1FFFFF) <= index:
            backward += 1
    calls = sum(1 for word in image.words if word >> 24 == 0x60)
    inputs = [math.log1p(abs(wrap(r))) / 22 for r in image.state.registers[:4]]
    return np.array([math.log1p(len(image.words)) / 8, backward / 8, calls / 8,
                     math.log2(max(len(image.state.memory), 1)) / 16, math.log1p(image.max_steps) / 32, *inputs],
                    np.float32)


def features(static: np.ndarray, steps: int, slices: int, syscalls: int) -> np.ndarray:
    dynamic = np.array([math.log1p(steps) / 16, math.log1p(slices) / 8, math.log1p(syscalls) / 8], np.float32)
    return np.concatenate([dynamic, static])


def choose(net: SchedulerNet | None, rows: np.ndarray, waited: list[int], remaining=None) -> tuple[int, bool]:
    """Index of the process to run and whether the starvation guard overrode
    the network. With `remaining` (the oracle's knowledge) it is SRPT."""
    if remaining is not None:
        return int(np.argmin(remaining)), False
    wanted = int(np.argmin(net.predict(rows)))
    starving = [i for i, w in enumerate(waited) if w > STARVE]
    if starving:
        oldest = max(starving, key=lambda i: (waited[i], -i))
        return oldest, oldest != wanted
    return wanted, False


# -- solo traces and the simulator ------------------------------------------------

def solo_trace(image, slice_steps: int = 200) -> list[tuple[int, int]] | None:
    """(instructions, system calls) after each slice of `image` run alone in the
    kernel; None when it blocks, forks, spawns or does not end by itself."""
    from ncpu.os.kernel import Kernel

    kernel = Kernel([image], slice_steps=slice_steps, max_ticks=2000)
    points = []
    run_slice = kernel._slice

    def recording(p):
        run_slice(p)
        points.append((p.state.steps, p.syscalls))

    kernel._slice = recording
    kernel.run()
    only = kernel.processes[1]
    if len(kernel.processes) != 1 or kernel.tick != len(points) or only.reason not in ("", "halted"):
        return None
    return points


class Job:
    """A job in a simulated mix: its static features, its solo trace, its arrival."""

    def __init__(self, static: np.ndarray, points: list[tuple[int, int]], arrival: int = 0):
        self.static, self.points, self.arrival = static, points, arrival
        self.total = points[-1][0]


def simulate(jobs: list[Job], policy: str, net: SchedulerNet | None = None) -> dict:
    """Schedule a mix as the kernel does; policy 'rr', 'srpt' or 'neural'.
    Returns turnaround per job (ticks) and the guard's overrides."""
    pending = sorted(range(len(jobs)), key=lambda j: (jobs[j].arrival, j))
    queue: list[int] = []
    done = [0] * len(jobs)
    last_run: dict[int, int] = {}
    finish = [0] * len(jobs)
    tick = overrides = 0
    while pending or queue:
        while pending and jobs[pending[0]].arrival <= tick:
            j = pending.pop(0)
            queue.append(j)
            last_run[j] = tick
        tick += 1
        if not queue:
            continue
        if policy == "rr":
            index = 0
        else:
            rows = [_row(jobs[j], done[j]) for j in queue]
            waited = [tick - last_run[j] for j in queue]
            remaining = [jobs[j].total - (jobs[j].points[done[j] - 1][0] if done[j] else 0) for j in queue] \
                if policy == "srpt" else None
            index, guarded = choose(net, np.stack(rows), waited, remaining)
            overrides += guarded
        j = queue.pop(index)
        last_run[j] = tick
        done[j] += 1
        if done[j] == len(jobs[j].points):
            finish[j] = tick
        else:
            queue.append(j)
    turnaround = [finish[j] - jobs[j].arrival for j in range(len(jobs))]
    return {"turnaround": turnaround, "overrides": overrides,
            "slowdown": [t / len(job.points) for t, job in zip(turnaround, jobs)]}


def _row(job: Job, done: int) -> np.ndarray:
    steps, syscalls = job.points[done - 1] if done else (0, 0)
    return features(job.static, steps, done, syscalls)


def mixes(pool: list[Job], count: int, seed: int) -> list[list[Job]]:
    """Random mixes of 3-12 jobs: all at once, or arriving over time (bursts or spread)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        size = rng.randint(3, 12)
        picked = [rng.choice(pool) for _ in range(size)]
        shape = rng.choice(("together", "spread", "bursts"))
        arrivals = [0] * size
        if shape == "spread":
            arrivals = sorted(rng.randint(0, 120) for _ in range(size))
        elif shape == "bursts":
            arrivals = sorted(rng.choice((0, 40, 80)) for _ in range(size))
        out.append([Job(job.static, job.points, a) for job, a in zip(picked, arrivals)])
    return out


def metrics(results: list[dict]) -> dict:
    """Mean turnaround over all jobs of all mixes; Jain's index of 1/slowdown
    (1 = every job slowed down equally) and the worst slowdown, per mix, averaged."""
    turn = [t for r in results for t in r["turnaround"]]
    jain, worst = [], []
    for r in results:
        x = [1 / s for s in r["slowdown"]]
        jain.append(sum(x) ** 2 / (len(x) * sum(v * v for v in x)))
        worst.append(max(r["slowdown"]))
    return {"mean_turnaround": float(np.mean(turn)), "jain": float(np.mean(jain)),
            "max_slowdown": float(np.mean(worst)), "overrides": sum(r.get("overrides", 0) for r in results)}


# -- training -----------------------------------------------------------------------

def dataset(pool: list[Job]) -> tuple[torch.Tensor, torch.Tensor]:
    """Every decision point of every training job: features -> log(1 + remaining)."""
    rows, target = [], []
    for job in pool:
        for done in range(len(job.points)):
            rows.append(_row(job, done))
            steps = job.points[done - 1][0] if done else 0
            target.append(math.log1p(job.total - steps))
    return torch.as_tensor(np.stack(rows)), torch.tensor(target)


def train(pool: list[Job], seed: int = 0, steps: int = 1500, log=None) -> SchedulerNet:
    torch.manual_seed(seed)
    net = SchedulerNet()
    x, y = dataset(pool)
    fit_by_steps(net, x, y, nn.functional.smooth_l1_loss, seed=seed, steps=steps, weight_decay=1e-4, log=log,
                 name="scheduler")
    return net


# -- the split and the figures ----------------------------------------------------------

def pools(slice_steps: int = 200) -> tuple[list[Job], list[Job]]:
    """Solo traces of the training and the held-out jobs (split by program)."""
    from ncpu.os.jobs import all_jobs, held_out

    split: tuple[list[Job], list[Job]] = ([], [])
    for job in all_jobs():
        points = solo_trace(job.image, slice_steps)
        if points is not None:
            split[held_out(job.program)].append(Job(static_features(job.image), points))
    return split


def evaluate(net: SchedulerNet, held: list[Job], count: int = 300, seed: int = 2) -> dict:
    """Round robin, SRPT and the network on `count` random held-out mixes."""
    tests = mixes(held, count, seed)
    return {policy: metrics([simulate(mix, policy, net) for mix in tests]) for policy in ("rr", "srpt", "neural")}
