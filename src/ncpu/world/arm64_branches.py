"""ARM64 branch directions speculated from latents by a head of their own.

Decoding the pc after a branch from a rolled-out latent and asking it to be
exact (`arm64_eval.branch_speculation`'s first figure) judges the 64-bit pc
as much as the direction. The direction head asks only the direction: a
small MLP reads the latent of the state *before* a conditional branch (the
context encoder's latent for k = 1, the predictor's open-loop rollout of k-1
steps from the exact state k-1 steps earlier otherwise; detached: the head
never shapes the latent space) and the branch's instruction word, and says
taken or not. It is a probe, like the trip head (`trips.py`): fitted on the
branches of training programs, judged on held-out ones.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from ncpu.world import arm64
from ncpu.world.model import WorldModel, _mlp, fit_head

KS = (1, 4, 16)  # how many steps ahead: the branch is the k-th step of the rollout
SEED = 7 * 10**8  # training programs for the head, apart from the other pools


class DirectionHead(nn.Module):
    """(latent before the branch, branch word bits) -> logit of "taken"."""

    def __init__(self, latent: int, hidden: int = 32):
        super().__init__()
        self.net = _mlp([latent + arm64.ACTION_BITS, hidden, hidden, 1])

    def forward(self, z: torch.Tensor, action: torch.Tensor) -> torch.Tensor:
        return self.net(torch.cat([z, action * 2 - 1], -1)).squeeze(-1)


def branch_pairs(traces, k: int) -> list[tuple]:
    """(trace, start step) of every conditional branch (target != fall-through) that has
    k-1 steps before it in its trace: the rollout starts k-1 steps before the branch."""
    pairs = []
    for t in traces:
        pcs = t.states[:-1, arm64.PC_COL]
        for j in np.flatnonzero(arm64.is_conditional(t.actions)):
            if j - k + 1 >= 0 and arm64.branch_target(int(t.actions[j]), int(pcs[j])) != int(pcs[j]) + 4:
                pairs.append((t, j - k + 1))
    return pairs


def taken(pairs: list[tuple], k: int) -> np.ndarray:
    """Whether each pair's branch (its k-th step) was taken: bool[N]."""
    out = []
    for t, i in pairs:
        j = i + k - 1
        out.append(int(t.states[j + 1, arm64.PC_COL]) == arm64.branch_target(int(t.actions[j]),
                                                                             int(t.states[j, arm64.PC_COL])))
    return np.array(out, bool)


@torch.no_grad()
def latents_before(model: WorldModel, pairs: list[tuple], k: int, batch: int = 1024) -> torch.Tensor:
    """The latent of the state before each pair's branch: encoded (k = 1) or rolled out k-1 steps."""
    out = []
    for s in range(0, len(pairs), batch):
        chunk = pairs[s:s + batch]
        z = model.encode(torch.from_numpy(arm64.state_bits(np.stack([t.states[i] for t, i in chunk]))))
        if k > 1:
            words = np.stack([t.actions[i:i + k - 1] for t, i in chunk])
            actions = torch.from_numpy(arm64.action_bits(words.reshape(-1))).view(len(chunk), k - 1, -1)
            z = model.rollout(z, actions)[:, -1]
        out.append(z)
    return torch.cat(out)


def _branch_words(pairs: list[tuple], k: int) -> torch.Tensor:
    return torch.from_numpy(arm64.action_bits(np.array([t.actions[i + k - 1] for t, i in pairs], np.uint64)))


def fit_direction_head(model: WorldModel, programs: int = 1500, steps: int = 1500, batch: int = 256,
                       seed: int = 0) -> DirectionHead:
    """Fit the head on the conditional branches of training programs, k = 1, 4 and 16 together."""
    traces = arm64.random_traces("train", SEED, programs)
    z, a, y = [], [], []
    for k in KS:
        pairs = branch_pairs(traces, k)
        z.append(latents_before(model, pairs, k))
        a.append(_branch_words(pairs, k))
        y.append(torch.from_numpy(taken(pairs, k)).float())
    z, a, y = torch.cat(z), torch.cat(a), torch.cat(y)
    torch.manual_seed(seed)
    head = DirectionHead(model.config.latent)
    return fit_head(head, lambda pick: F.binary_cross_entropy_with_logits(head(z[pick], a[pick]), y[pick]),
                    len(y), steps, batch, seed)


@torch.no_grad()
def head_accuracy(model: WorldModel, head: DirectionHead, traces, k: int) -> tuple[float, int]:
    """Share of held-out branches whose direction the head gets right k steps ahead, and their number."""
    pairs = branch_pairs(traces, k)
    if not pairs:
        return 0.0, 0
    predicted = head(latents_before(model, pairs, k), _branch_words(pairs, k)) > 0
    return float((predicted.numpy() == taken(pairs, k)).mean()), len(pairs)
