"""The MMU as a network: attention over the page table (a content-addressable lookup).

The page table is a set of entries (virtual page, frame). A query virtual
page attends over the entries' keys; the attended value is the frame, read
out bit by bit, plus an "unmapped" output when no entry matches. Queries and
keys are the page numbers' bits (as -1/+1) through one learned projection,
so the score of an entry is a learned similarity of the two page numbers; a
learned null entry takes the attention when nothing matches.

Oracle: the table itself. `verify` enumerates every virtual page of many
random page tables (and of the real ones the OS builds) and counts every
wrong frame or wrong mapped/unmapped answer.
"""

from __future__ import annotations

import torch
from torch import nn

VPN_BITS = 16  # virtual pages: an address space is at most 2^22 words of 64-word pages
FRAME_BITS = 16


def bits(values: torch.Tensor, width: int) -> torch.Tensor:
    """±1 bits, least significant first: [..., width]."""
    shifts = torch.arange(width, device=values.device)
    return ((values[..., None] >> shifts) & 1).float() * 2 - 1


class MMUNet(nn.Module):
    def __init__(self):
        super().__init__()
        # Started at the identity (bit i compared with bit i), so that training
        # sharpens a lookup rather than searching for one from noise.
        self.project = nn.Linear(VPN_BITS, VPN_BITS, bias=False)
        nn.init.eye_(self.project.weight)
        # score = scale * (similarity - threshold); the null entry scores 0.
        # The similarity is the cosine of the projected pages: 1 for equal
        # pages whatever the projection, less for others (7/8 for pages one
        # bit apart at the start); training moves the threshold and the
        # projection apart and sharpens the scale.
        self.log_scale = nn.Parameter(torch.tensor(1.0))
        self.threshold = nn.Parameter(torch.tensor(0.9375))

    def forward(self, queries: torch.Tensor, vpns: torch.Tensor, frames: torch.Tensor):
        """queries [Q] virtual pages; vpns/frames [E] the table's entries.
        Returns (frame bit probabilities [Q, FRAME_BITS], mapped probability [Q])."""
        q = self.project(bits(queries, VPN_BITS))
        k = self.project(bits(vpns, VPN_BITS))
        q = nn.functional.normalize(q, dim=-1)
        k = nn.functional.normalize(k, dim=-1)
        scores = self.log_scale.exp() * (q @ k.T - self.threshold)  # [Q, E]
        null = torch.zeros(len(queries), 1, device=queries.device)
        weights = torch.softmax(torch.cat([scores, null], dim=1), dim=1)
        values = (bits(frames, FRAME_BITS) + 1) / 2  # 0/1 frame bits [E, FRAME_BITS]
        frame_bits = weights[:, :-1] @ values
        mapped = 1 - weights[:, -1]
        return frame_bits, mapped

    @torch.no_grad()
    def translate(self, queries: torch.Tensor, vpns: torch.Tensor, frames: torch.Tensor) -> torch.Tensor:
        """Frames of `queries`, -1 where the network says unmapped."""
        if len(vpns) == 0:
            return torch.full_like(queries, -1)
        frame_bits, mapped = self(queries, vpns, frames)
        shifts = torch.arange(FRAME_BITS, device=queries.device)
        frame = ((frame_bits > 0.5).long() << shifts).sum(-1)
        return torch.where(mapped > 0.5, frame, -1)


def random_table(generator: torch.Generator, entries: int, vpn_space: int, device=None):
    """`entries` distinct virtual pages below `vpn_space`, each with a random frame."""
    vpns = torch.randperm(vpn_space, generator=generator)[:entries].to(device)
    frames = torch.randint(0, 1 << FRAME_BITS, (len(vpns),), generator=generator).to(device)
    return vpns, frames


def train(seed: int = 0, steps: int = 1500, device=None, log=None) -> MMUNet:
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    net = MMUNet().to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=0.03)
    for step in range(steps):
        entries = int(torch.randint(1, 128, (1,), generator=generator))
        space = int(torch.randint(entries, 1 << VPN_BITS, (1,), generator=generator)) + 1
        vpns, frames = random_table(generator, entries, space, device)
        hits = vpns[torch.randint(0, entries, (64,), generator=generator).to(device)]
        # Misses are what attention confuses: pages one bit away from a mapped one.
        near = hits ^ (1 << torch.randint(0, VPN_BITS, (64,), generator=generator).to(device))
        queries = torch.cat([hits, near])
        table = dict(zip(vpns.tolist(), frames.tolist()))
        target = torch.tensor([table.get(v, -1) for v in queries.tolist()], device=device)
        frame_bits, mapped = net(queries, vpns, frames)
        is_mapped = (target >= 0).float()
        want_bits = (bits(target.clamp(min=0), FRAME_BITS) + 1) / 2
        loss = nn.functional.binary_cross_entropy(mapped.clamp(1e-6, 1 - 1e-6), is_mapped)
        loss = loss + (nn.functional.binary_cross_entropy(frame_bits.clamp(1e-6, 1 - 1e-6), want_bits,
                                                          reduction="none").mean(1) * is_mapped).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if log and (step % 250 == 0 or step == steps - 1):
            log(f"mmu step {step}: loss {loss.item():.5f}")
    return net


def verify_table(net: MMUNet, vpns: torch.Tensor, frames: torch.Tensor, vpn_space: int) -> int:
    """Wrong answers over every virtual page below `vpn_space`."""
    queries = torch.arange(vpn_space, device=vpns.device)
    want = torch.full((vpn_space,), -1, dtype=torch.long, device=vpns.device)
    want[vpns] = frames
    wrong = 0
    for start in range(0, vpn_space, 8192):
        part = queries[start:start + 8192]
        wrong += int((net.translate(part, vpns, frames) != want[start:start + 8192]).sum())
    return wrong


def verify(net: MMUNet, tables: int = 300, seed: int = 12345, device=None) -> dict:
    """Every virtual page of `tables` random page tables: small address spaces
    enumerated whole, and a few full 2^16-page spaces with up to 512 entries."""
    generator = torch.Generator().manual_seed(seed)
    cases = wrong = 0
    for index in range(tables):
        full = index % 30 == 0
        space = 1 << VPN_BITS if full else int(torch.randint(1, 1025, (1,), generator=generator))
        entries = int(torch.randint(0, min(space, 512 if full else 256) + 1, (1,), generator=generator))
        vpns, frames = random_table(generator, entries, space, device)
        wrong += verify_table(net, vpns, frames, space)
        cases += space
    return {"tables": tables, "cases": cases, "wrong": wrong}
