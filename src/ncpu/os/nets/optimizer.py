"""The compiler optimizer's network: which peephole rewrites to try.

The nsl peephole optimizer (`ncpu.nsl.peephole`) generates candidate
rewrites for each window of 2-4 instructions and proves each one it tries
(`ncpu.nsl.equivalence`). This network scores (window, candidate) pairs:
the probability that the candidate is correct, i.e. that the guard will
prove it. The chooser tries the candidates it believes in (p > 0.5), most
expected saving first, and skips windows where it believes in none, so it
saves proofs; any candidate it puts forward that the guard refuses is an
override. It is trained to imitate the oracle, which asks the guard about
every candidate (`peephole.oracle`), on the windows of the training nsl
programs; it is judged on programs it never saw (`split`).

Features (all small integers): per window slot (4), the instruction's
class, whether it writes a register that nothing later reads (neither the
window nor the code after it), and whether its flags die the same way;
the registers and flags live after the window; the candidate's kind, its
saving, and which window slots it drops or changes.
"""

from __future__ import annotations

import hashlib

import torch
from torch import nn

from ncpu.nsl import listing
from ncpu.nsl.equivalence import FLAGS, REGISTERS
from ncpu.nsl.peephole import Candidate

SLOTS = 4
CLASSES = ("NOP", "MOV", "MOVI", "MOVT", "ALU", "ALUI", "UNARY", "INCDEC", "CMP", "CMPI", "LOAD", "STORE", "PUSH",
           "POP")
KINDS = ("delete", "delete2", "retarget", "fold")
LIVE = REGISTERS + FLAGS
PER_SLOT = len(CLASSES) + 5
FEATURES = SLOTS * PER_SLOT + len(LIVE) + len(KINDS) + 1
HIDDEN = 32


def instruction_class(name: str) -> str:
    if name in ("ADD", "SUB", "MUL", "DIV", "MOD", "AND", "OR", "XOR", "SHL", "SHR", "SAR"):
        return "ALU"
    if name.endswith("I") and name not in ("MOVI", "CMPI"):
        return "ALUI"
    if name in ("NOT", "NEG"):
        return "UNARY"
    if name in ("INC", "DEC"):
        return "INCDEC"
    return name


def features(window, live: frozenset[str], candidate: Candidate) -> list[float]:
    row = []
    new = list(candidate.new)
    for slot in range(SLOTS):
        part = [0.0] * PER_SLOT
        if slot < len(window):
            ins = window[slot]
            part[CLASSES.index(instruction_class(ins.op.mnemonic))] = 1.0
            later = set()
            for after in window[slot + 1:]:
                later |= listing.reads(after)
            # a value is read later unless rewritten first: approximate by "read later or live after"
            wanted = later | live
            regs = {r for r in listing.writes(ins) if r.startswith("R")}
            flags = {f for f in listing.writes(ins) if f in FLAGS}
            part[len(CLASSES)] = float(bool(regs) and not (regs & wanted))
            part[len(CLASSES) + 1] = float(bool(flags) and not (flags & wanted))
            part[len(CLASSES) + 2] = float(ins not in new)                      # dropped or changed
            part[len(CLASSES) + 3] = float(ins.op.mnemonic in ("LOAD", "POP") and ins not in new)
            part[len(CLASSES) + 4] = 1.0
        row += part
    row += [float(r in live) for r in LIVE]
    row += [float(candidate.kind == k) for k in KINDS]
    row.append(float(candidate.saving))
    return row


class OptimizerNet(nn.Module):
    def __init__(self, hidden: int = HIDDEN):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(FEATURES, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                    nn.Linear(hidden, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:   # (B, FEATURES) -> (B,) logits
        return self.layers(x).squeeze(-1)

    @torch.no_grad()
    def probabilities(self, window, live, found: list[Candidate]) -> list[float]:
        if not found:
            return []
        x = torch.tensor([features(window, live, c) for c in found])
        return torch.sigmoid(self(x)).tolist()


def chooser(net: OptimizerNet, threshold: float = 0.5):
    """The network as a peephole chooser: believed candidates, most expected saving first."""
    def choose(window, live, found):
        scored = [(p * c.saving, c) for p, c in zip(net.probabilities(window, live, found), found) if p > threshold]
        return [c for _, c in sorted(scored, key=lambda pair: -pair[0])]
    return choose


def split(names: list[str]) -> tuple[list[str], list[str]]:
    """(training, held-out) by program name: a third of the programs, chosen by a hash of the name."""
    held = [n for n in names if int(hashlib.sha256(n.encode()).hexdigest(), 16) % 3 == 0]
    return [n for n in names if n not in held], held


def train(rows: list[list[float]], labels: list[float], seed: int = 0, steps: int = 1500, log=None) -> OptimizerNet:
    """Full-batch Adam on the distinct (features, label) pairs, each weighted
    by how often it occurs (the features are coarse: tens of thousands of
    candidates collapse to a few thousand pairs); proven candidates weigh
    up to 4 times more, as they are rare."""
    torch.manual_seed(seed)
    net = OptimizerNet()
    pairs = torch.cat([torch.tensor(rows), torch.tensor(labels)[:, None]], dim=1)
    distinct, counts = torch.unique(pairs, dim=0, return_counts=True)
    x, y, w = distinct[:, :-1], distinct[:, -1], counts.float()
    positive = float((w * y).sum().clamp(min=1))
    boost = min((float(w.sum()) - positive) / positive, 4.0)
    w = w * torch.where(y > 0.5, boost, 1.0)
    optimizer = torch.optim.Adam(net.parameters(), lr=0.01)
    for step in range(steps):
        loss = (nn.functional.binary_cross_entropy_with_logits(net(x), y, reduction="none") * w).sum() / w.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if log and (step % 300 == 0 or step == steps - 1):
            log(f"optimizer step {step}: loss {loss.item():.4f} on {len(y):,} distinct pairs "
                f"({int(sum(labels))} proven of {len(labels):,} candidates)")
    return net
