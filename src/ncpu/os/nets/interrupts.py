"""The interrupt controller as a network: (pending, mask) -> the line to service.

Oracle: the lowest-numbered line that is pending and not masked, or none
(`ncpu.os.policies.lowest_line`). Input: the 8 pending and 8 mask bits;
a hidden ReLU layer, then 9 logits (lines 0..7, then "none"). The whole
input space is 2^16 pairs, so training sees all of it and `verify`
enumerates every pair: the network is exact or it is not shipped.
"""

from __future__ import annotations

import torch
from torch import nn

from ncpu.os.policies import NUM_LINES, lowest_line

HIDDEN = 16
NONE = NUM_LINES  # the class meaning "no line"


class InterruptNet(nn.Module):
    def __init__(self, hidden: int = HIDDEN):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(2 * NUM_LINES, hidden), nn.ReLU(), nn.Linear(hidden, NUM_LINES + 1))

    def forward(self, bits: torch.Tensor) -> torch.Tensor:
        return self.layers(bits)

    @torch.no_grad()
    def decide(self, pending: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Lines (int64, -1 for none) for integer pending/mask tensors."""
        choice = self(encode(pending, mask)).argmax(-1)
        return torch.where(choice == NONE, -1, choice)


def encode(pending: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    shifts = torch.arange(NUM_LINES, device=pending.device)
    bits = torch.cat([(pending[:, None] >> shifts) & 1, (mask[:, None] >> shifts) & 1], dim=1)
    return bits.float()


def every_pair(device=None) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """All 2^16 (pending, mask) pairs and the oracle's class for each."""
    everything = torch.arange(1 << (2 * NUM_LINES), device=device)
    pending, mask = everything & 0xFF, everything >> NUM_LINES
    target = torch.tensor([lowest_line(int(p), int(m)) for p, m in zip(pending.tolist(), mask.tolist())],
                          device=device)
    return pending, mask, torch.where(target < 0, NONE, target)


def train(seed: int = 0, steps: int = 3000, device=None, log=None) -> InterruptNet:
    torch.manual_seed(seed)
    net = InterruptNet().to(device)
    pending, mask, target = every_pair(device)
    inputs = encode(pending, mask)
    optimizer = torch.optim.Adam(net.parameters(), lr=0.02)
    for step in range(steps):
        loss = nn.functional.cross_entropy(net(inputs), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 200 == 0 or step == steps - 1:
            wrong = int((net(inputs).argmax(-1) != target).sum())
            if log:
                log(f"interrupts step {step}: loss {loss.item():.5f}, wrong {wrong}")
            if wrong == 0 and loss.item() < 1e-3:
                break
    return net


def verify(net: InterruptNet, device=None) -> dict:
    """Every pending/mask pair against the oracle."""
    pending, mask, target = every_pair(device)
    got = net.decide(pending, mask)
    want = torch.where(target == NONE, -1, target)
    return {"cases": len(target), "wrong": int((got != want).sum())}
