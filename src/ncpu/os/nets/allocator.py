"""The block allocator as a network: where in the kernel heap a block goes.

The kernel heap (HEAP units) holds each process's page table and header as
one contiguous block (a unit per virtual page, plus one), allocated at spawn
or fork and freed when the process ends. It is simulated for the statistics,
like a data cache: a failed allocation is counted, the process runs anyway.

Placement: the network scores every free hole that fits the request from
features of the hole and of the heap (sizes, leftover, position, rank by
size, whether first fit or best fit would take it); the best score wins.
Classical: first fit; also best fit. Oracle: for each fitting hole, place
the block there and replay the next HORIZON events of the trace with best
fit, counting failures and fragmentation; take the hole that does least
harm (it sees the future). The network imitates it from the present only.

Traces: synthetic request streams of several shapes and the kernel's own
trace from running workload mixes, split by source (TRAIN_SOURCES vs
HELD_SOURCES): no held-out figure comes from a source seen in training.
"""

from __future__ import annotations

import random

import numpy as np
import torch
from torch import nn

from ncpu.os.heap import HEAP, Heap, best_fit, first_fit

FEATURES = 13
HIDDEN = 32
HORIZON = 24  # events the oracle looks ahead


class AllocatorNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(FEATURES, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, 1))

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.layers(features).squeeze(-1)

    def scores(self, features: np.ndarray) -> np.ndarray:
        first, last = self.layers[0], self.layers[2]
        hidden = np.maximum(features @ first.weight.detach().numpy().T + first.bias.detach().numpy(), 0)
        return (hidden @ last.weight.detach().numpy().T + last.bias.detach().numpy())[:, 0]


def candidate_features(heap: Heap, fitting: list[tuple[int, int]], length: int) -> np.ndarray:
    holes = heap.holes()
    free = sum(h for _, h in holes)
    largest = max(h for _, h in holes)
    best = best_fit(heap, fitting, length)
    order = sorted(range(len(fitting)), key=lambda i: fitting[i][1])
    rank = {i: r for r, i in enumerate(order)}
    s = heap.size
    rows = [[length / s, h / s, (h - length) / s, float(h == length), start / s, rank[i] / max(len(fitting), 1),
             float(i == 0), float(i == best), len(holes) / 16, free / s, largest / s, float(h == largest),
             float(start + h == s)]
            for i, (start, h) in enumerate(fitting)]
    return np.asarray(rows, np.float32)


def neural_chooser(net: AllocatorNet):
    def choose(heap, fitting, length):
        return int(np.argmax(net.scores(candidate_features(heap, fitting, length))))
    return choose


def replay(trace: list[tuple], choose, heap: Heap | None = None) -> dict:
    """Run a trace of ("alloc", owner, length) / ("free", owner) events."""
    heap = heap or Heap()
    for event in trace:
        if event[0] == "alloc":
            heap.alloc(event[1], event[2], choose)
        else:
            heap.free(event[1])
    return heap.stats()


def oracle_choice(heap: Heap, fitting, length, future: list[tuple], owner) -> int:
    """The hole after which best fit does least harm on the next HORIZON events."""
    harms = []
    for i, (start, _) in enumerate(fitting):
        trial = heap.copy()
        trial.blocks[owner] = (start, length)
        stats = replay(future[:HORIZON], best_fit, trial)
        harms.append((stats["failures"], stats["fragmentation"], i != best_fit(heap, fitting, length), i))
    return min(harms)[3]


def replay_oracle(trace: list[tuple], record: list | None = None) -> dict:
    heap = Heap()
    for index, event in enumerate(trace):
        if event[0] == "alloc":
            future = trace[index + 1:]

            def choose(h, fitting, length, future=future, owner=event[1]):
                pick = oracle_choice(h, fitting, length, future, owner)
                if record is not None and len(fitting) > 1:
                    record.append((candidate_features(h, fitting, length), pick))
                return pick

            heap.alloc(event[1], event[2], choose)
        else:
            heap.free(event[1])
    return heap.stats()


# -- request streams ---------------------------------------------------------------------

def synthetic(source: str, rng: random.Random, events: int = 160) -> list[tuple]:
    """A request stream of one shape: sizes and lifetimes drawn per source."""
    trace, live, owner, sizes = [], [], 0, {}
    for _ in range(events):
        if live and (rng.random() < 0.45 or sum(sizes[o] for o in live) > 0.8 * HEAP):
            if source == "lifo":
                victim = live.pop()
            else:
                victim = live.pop(rng.randrange(len(live)))
            trace.append(("free", victim))
            continue
        if source == "uniform":
            size = rng.randint(1, 16)
        elif source == "bimodal":
            size = rng.choice((rng.randint(1, 3), rng.randint(12, 20)))
        elif source == "phased":
            size = 1 + (len(trace) // 20 % 4) * 4 + rng.randint(0, 3)
        elif source == "powerlaw":
            size = min(HEAP // 2, int(1 / (rng.random() + 0.04)))
        else:  # lifo: stack-like frees, mixed sizes
            size = rng.choice((2, 3, 5, 8, 13))
        owner += 1
        sizes[owner] = size
        live.append(owner)
        trace.append(("alloc", owner, size))
    return trace


def kernel_trace(rng: random.Random, pool: list) -> list[tuple]:
    """The kernel heap's own trace: a mix of jobs (from `pool`, images)
    arriving over time, run in the kernel, spawn/fork and exit recorded."""
    from dataclasses import replace

    from ncpu.os.kernel import Kernel
    from ncpu.os.policies import ClassicalPolicies

    images = [replace(rng.choice(pool), arrival=rng.randint(0, 60)) for _ in range(rng.randint(6, 14))]
    policies = ClassicalPolicies()
    policies.heap_trace = []
    Kernel(images, policies).run()
    return policies.heap_trace


TRAIN_SOURCES = ("uniform", "bimodal", "phased")
HELD_SOURCES = ("powerlaw", "lifo", "kernel")


def traces(sources, count: int, seed: int) -> dict[str, list[list[tuple]]]:
    from ncpu.os.jobs import all_jobs, held_out

    rng = random.Random(seed)
    out = {}
    for source in sources:
        if source == "kernel":
            pool = [job.image for job in all_jobs() if held_out(job.program) and len(job.image.state.memory) <= 1024]
            pool = [image for image in pool if image.name not in ("hanoi", "alu_loop")]  # long runs, same trace
            out[source] = [kernel_trace(rng, pool) for _ in range(count)]
        else:
            out[source] = [synthetic(source, rng) for _ in range(count)]
    return out


def train(seed: int = 0, count: int = 20, steps: int = 1500, log=None) -> AllocatorNet:
    torch.manual_seed(seed)
    record: list = []
    for streams in traces(TRAIN_SOURCES, count, seed).values():
        for trace in streams:
            replay_oracle(trace, record)
    net = AllocatorNet()
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-3)
    generator = random.Random(seed)
    # Candidates padded to one tensor; padding scores -inf.
    width = max(len(f) for f, _ in record)
    x = torch.zeros(len(record), width, FEATURES)
    pad = torch.ones(len(record), width, dtype=torch.bool)
    for i, (f, _) in enumerate(record):
        x[i, :len(f)] = torch.as_tensor(f)
        pad[i, :len(f)] = False
    y = torch.tensor([pick for _, pick in record])
    for step in range(steps):
        batch = torch.tensor([generator.randrange(len(record)) for _ in range(128)])
        logits = net(x[batch]).masked_fill(pad[batch], float("-inf"))
        loss = nn.functional.cross_entropy(logits, y[batch])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if log and (step % 200 == 0 or step == steps - 1):
            log(f"allocator step {step}: loss {loss.item():.4f} ({len(record)} oracle decisions)")
    return net


def evaluate(net: AllocatorNet, count: int = 20, seed: int = 7) -> dict:
    """Failures per trace and mean fragmentation on held-out sources, per policy."""
    held = traces(HELD_SOURCES, count, seed)
    policies = {"first_fit": first_fit, "best_fit": best_fit, "neural": neural_chooser(net)}
    out = {}
    for name, choose in list(policies.items()) + [("oracle", None)]:
        runs = [replay_oracle(t) if choose is None else replay(t, choose) for ts in held.values() for t in ts]
        out[name] = {"failures": float(np.mean([r["failures"] for r in runs])),
                     "fragmentation": float(np.mean([r["fragmentation"] for r in runs])),
                     "allocations": int(sum(r["allocations"] for r in runs))}
    out["per_source"] = {source: {name: float(np.mean([replay(t, c)["failures"] for t in ts]))
                                  for name, c in policies.items()} for source, ts in held.items()}
    return out


