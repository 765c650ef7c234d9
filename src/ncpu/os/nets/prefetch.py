"""The prefetcher: a learned next-delta predictor over the access stream
(the stride prefetcher it is compared with is `ncpu.os.stride`).

Both watch the same events: an instruction (program, pc) touching a cache
line other than the one it touched last (its own stream moved on). At such
an event the stride prefetcher (a reference prediction table, one entry per
instruction) proposes line + delta when the instruction's last two line
deltas agree. The network proposes line + the delta it predicts for the
instruction's next move, from the instruction's last four deltas, the
process's last four line deltas (all instructions, so stack traffic and
interleaved arrays are visible) and the kind of access; it proposes nothing
when it is unsure (its top class under THRESHOLD, or "other").

Deltas are in lines, bucketed: -MAX_DELTA..MAX_DELTA, "far" and "none".
The oracle for training is what the instruction actually did next.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from ncpu.os.stride import BUCKETS, FAR, HISTORY, MAX_DELTA, DeltaHistory
from ncpu.os.trace import KINDS
from ncpu.os.nets.fitting import fit_by_epochs

OTHER = 2 * MAX_DELTA  # output class: no delta in range (0 is never a move, so its slot means "other")
CLASSES = 2 * MAX_DELTA + 1
THRESHOLD = 0.5
INPUTS = 2 * HISTORY + 1  # bucket ids: pc history, process history, then the kind


def to_class(delta: int) -> int:
    """Output class of a next delta (OTHER when out of range)."""
    if delta == 0 or not -MAX_DELTA <= delta <= MAX_DELTA:
        return OTHER
    return delta + MAX_DELTA if delta < 0 else delta + MAX_DELTA - 1


def from_class(cls: int) -> int:
    return cls - MAX_DELTA if cls < MAX_DELTA else cls - MAX_DELTA + 1


class PrefetchNet(nn.Module):
    """Bucket ids of the histories and the kind -> next-delta class logits."""

    def __init__(self, width: int = 8, hidden: int = 64):
        super().__init__()
        self.embed = nn.Embedding(BUCKETS + len(KINDS), width)
        self.layers = nn.Sequential(nn.Linear(INPUTS * width, hidden), nn.ReLU(), nn.Linear(hidden, CLASSES))

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        return self.layers(self.embed(inputs).flatten(1))

    @torch.no_grad()
    def predict(self, inputs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(class, its probability) per event."""
        if not len(inputs):
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        probabilities = torch.softmax(self(torch.as_tensor(inputs, dtype=torch.long)), -1)
        best, cls = probabilities.max(-1)
        return cls.numpy(), best.numpy()


def proposals(classes: np.ndarray, confidence: np.ndarray, lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(line to prefetch, whether to) per event, from the network's outputs."""
    deltas = np.array([from_class(int(c)) for c in classes], np.int64)
    return lines + deltas, (classes != OTHER) & (confidence >= THRESHOLD)


def events(stream: np.ndarray, line_words: int):
    """Training pairs from one workload's access stream (rows pid, program, pc, address, kind, ...):
    each event's inputs and the class of the instruction's next delta."""
    history = DeltaHistory()
    inputs, targets, where = [], [], []
    pending: dict = {}  # instruction -> index of its last event, waiting for its next move
    lines = stream[:, 3] // line_words
    for index, row in enumerate(stream.tolist()):
        pid, key, kind = row[0], (row[1], row[2]), row[4]
        x = history.observe(pid, key, int(lines[index]), kind)
        if x is None:
            continue
        if key in pending:
            targets[pending[key]] = to_class(history.last_deltas(key)[-1] - MAX_DELTA
                                             if history.last_deltas(key)[-1] != FAR else 1 << 20)
        pending[key] = len(inputs)
        inputs.append(x)
        targets.append(OTHER)
        where.append(index)
    return np.array(inputs, np.int64).reshape(-1, INPUTS), np.array(targets, np.int64), np.array(where, np.int64)


def train_net(inputs: np.ndarray, targets: np.ndarray, seed: int = 0, epochs: int = 6, log=None) -> PrefetchNet:
    torch.manual_seed(seed)
    net = PrefetchNet()
    x, y = torch.as_tensor(inputs), torch.as_tensor(targets)
    fit_by_epochs(net, x, y, nn.functional.cross_entropy, seed=seed, epochs=epochs, batch=256, log=log,
                  name="prefetch")
    return net
