"""What the learned replacement policies (TLB, data cache) see: past-only
features of each access, a small network that reads them, and its training
against Belady's MIN.

The idea is Hawkeye's (Jain and Lin, 2016): MIN's decision for a past
access is known once the trace has moved on, and which instruction made an
access predicts whether MIN would keep what it touched. Our programs are
split by program into training and held-out sets, so an instruction's
address means nothing across them; instead each instruction (program, pc)
carries running statistics of what happened to the entries it touched
(were they used again within the set's ways? within twice that? how far
away?), which carry over to programs never seen. With them: the kind of
access, whether the key was seen, its LRU stack distance now and at its
previous reuse, and how often it was used.

The network predicts, per access, the probability that MIN keeps the key
until its next use (cache-friendly). The policy (`choose_victim`) evicts
the least recently used of the entries predicted averse (probability under
the net's `threshold`), and the least recently used entry when none is:
LRU is what remains when the network trusts everything. The threshold is
picked after training, by replaying the TRAINING traces (MIN keeps nearly
everything, so the best cut is not always one half).
"""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn

from ncpu.os.nets.fitting import fit_by_epochs
from ncpu.os.trace import KINDS

FEATURES = len(KINDS) + 12
MAX_DEPTH = 64  # stack distances beyond this read as "far"
DECAY = 0.8  # weight of an instruction's past in its running statistics


class ReuseTracker:
    """Features of each access to a structure of `sets` x `ways`, from the past only."""

    def __init__(self, sets: int, ways: int):
        self.sets, self.ways = sets, ways
        self.stacks = [[] for _ in range(sets)]  # per set, keys most recent first (to MAX_DEPTH)
        self.keys: dict[int, list] = {}  # key -> [count, previous distance, last instruction, resolved1, resolved2]
        self.pcs: dict[tuple, list] = {}  # instruction -> [within ways, within 2*ways, log distance, observations]

    def _pc(self, pc) -> list:
        stats = self.pcs.get(pc)
        if stats is None:
            stats = self.pcs[pc] = [0.5, 0.5, 0.5, 0.0]
        return stats

    def _learn(self, pc, slot: int, value: float) -> None:
        stats = self._pc(pc)
        stats[slot] = DECAY * stats[slot] + (1 - DECAY) * value
        stats[3] += 1

    def features(self, key: int, pc, kind: int) -> list[float]:
        """This access's feature vector; then the tracker takes it in."""
        stack = self.stacks[key % self.sets]
        ways = self.ways
        try:
            depth = stack.index(key)
        except ValueError:
            depth = -1
        state = self.keys.get(key)
        # What the instruction that last touched this key did: kept within reach or not.
        if state is not None:
            if depth >= 0:
                if depth < ways:
                    self._learn(state[2], 0, 1.0)
                if depth < 2 * ways:
                    self._learn(state[2], 1, 1.0)
            self._learn(state[2], 2, math.log2(1 + (depth if depth >= 0 else MAX_DEPTH)) / 6)
        # Keys pushed past depth ways / 2*ways by this access were not reused in time.
        limit = depth if depth >= 0 else len(stack)
        for threshold, slot in ((ways, 0), (2 * ways, 1)):
            if threshold <= limit and threshold - 1 < len(stack):
                pushed = self.keys[stack[threshold - 1]]
                if not pushed[3 + slot]:
                    pushed[3 + slot] = True
                    self._learn(pushed[2], slot, 0.0)
        pc_stats = self._pc(pc)
        onehot = [0.0] * len(KINDS)
        onehot[kind] = 1.0
        seen = state is not None
        far = depth < 0
        vector = onehot + [
            float(seen), float(seen and far),
            math.log2(1 + (MAX_DEPTH if far else depth)) / 6 if seen else 0.0,
            float(0 <= depth < ways), float(0 <= depth < 2 * ways),
            math.log2(1 + state[0]) / 10 if seen else 0.0,
            state[1] if seen else 0.0,
            pc_stats[0], pc_stats[1], pc_stats[2], min(pc_stats[3], 50) / 50, float(pc_stats[3] == 0),
        ]
        # Take the access in.
        if depth >= 0:
            del stack[depth]
        stack.insert(0, key)
        if len(stack) > MAX_DEPTH:
            stack.pop()
        distance = math.log2(1 + (MAX_DEPTH if far else depth)) / 6 if seen else 1.0
        if state is None:
            self.keys[key] = [1, distance, pc, False, False]
        else:
            state[0] += 1
            state[1] = distance
            state[2] = pc
            state[3] = state[4] = False
        return vector

    def batch(self, keys, pcs, kinds) -> np.ndarray:
        return np.array([self.features(k, p, c) for k, p, c in zip(keys, pcs, kinds)], np.float32).reshape(-1, FEATURES)


class ReuseNet(nn.Module):
    """features -> logit of "MIN keeps this key until its next use"."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.register_buffer("threshold", torch.tensor(0.5))
        self.layers = nn.Sequential(nn.Linear(FEATURES, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                    nn.Linear(hidden, 1))

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.layers(features).squeeze(-1)

    @torch.no_grad()
    def friendly(self, features: np.ndarray) -> np.ndarray:
        """Probability of cache-friendly per access (float32)."""
        if not len(features):
            return np.zeros(0, np.float32)
        return torch.sigmoid(self(torch.as_tensor(features))).numpy()


def choose_victim(entries, threshold: float = 0.5) -> int:
    """The least recently used entry predicted averse (score < threshold), else the least recently used."""
    for key, score in entries.items():
        if score < threshold:
            return key
    return next(iter(entries))


THRESHOLDS = (0.5, 0.7, 0.9)


def pick_threshold(net: ReuseNet, per_stream: list, sets: int, ways: int, log=None, name: str = "reuse") -> float:
    """The threshold with the most hits on these (training) streams; stored in the net."""
    from ncpu.os.replacement import simulate

    hits = {}
    for threshold in THRESHOLDS:
        hits[threshold] = sum(int(simulate(keys, sets, ways, net.friendly(features),
                                           lambda entries: choose_victim(entries, threshold)).sum())
                              for keys, features, _ in per_stream)
    best = max(THRESHOLDS, key=lambda t: (hits[t], -t))
    net.threshold.fill_(best)
    if log:
        log(f"{name} threshold {best} (training hits {hits})")
    return best


def train_net(features: np.ndarray, labels: np.ndarray, seed: int = 0, epochs: int = 6, log=None,
              name: str = "reuse") -> ReuseNet:
    """Binary cross-entropy on (features, MIN's label), minibatches, Adam; reproducible from `seed`."""
    torch.manual_seed(seed)
    net = ReuseNet()
    x, y = torch.as_tensor(features), torch.as_tensor(labels)
    fit_by_epochs(net, x, y, nn.functional.binary_cross_entropy_with_logits, seed=seed, epochs=epochs, batch=512,
                  log=log, name=name)
    return net


def dataset(streams: list[np.ndarray], keys_of, sets: int, ways: int) -> list[tuple]:
    """Per workload stream (rows: pid, program, pc, address, kind, ...): its keys,
    the features of its accesses and MIN's labels."""
    from ncpu.os.replacement import belady_labels

    per_stream = []
    for stream in streams:
        if not len(stream):
            continue
        keys = keys_of(stream)
        tracker = ReuseTracker(sets, ways)
        features = tracker.batch(keys.tolist(), list(zip(stream[:, 1].tolist(), stream[:, 2].tolist())),
                                 stream[:, 4].tolist())
        per_stream.append((keys, features, belady_labels(keys, sets, ways)))
    return per_stream


def train_part(streams: list[np.ndarray], keys_of, sets: int, ways: int, seed: int, epochs: int, log,
               name: str) -> ReuseNet:
    """Train on the streams' MIN labels, then pick the threshold on the same (training) streams."""
    per_stream = dataset(streams, keys_of, sets, ways)
    net = train_net(np.concatenate([f for _, f, _ in per_stream]), np.concatenate([y for _, _, y in per_stream]),
                    seed=seed, epochs=epochs, log=log, name=name)
    pick_threshold(net, per_stream, sets, ways, log, name)
    return net
