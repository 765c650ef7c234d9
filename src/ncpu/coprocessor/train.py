"""Training the coprocessor on a frozen base model, and the NALU comparison head.

The coprocessor's loss has four parts, all on synthetic text whose
structure is known: the base model's own next-character loss (through the
write-back and the gate), a cross-entropy on the read-out head against
each character's class, a binary cross-entropy on the gate against the
positions where the answer is written (these two are direct supervision
with the known operand, operator and answer positions), and a logit-lens
loss that makes each write-back vector, on its own through the model's
final norm and head, predict its symbol. Without the last, a vector only
has to tip the base model's own guess where the base model is nearly right
(answers of up to 6 characters here); past that it must win on its own.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Callable

import torch
from torch import nn
from torch.nn import functional as F

from ncpu.coprocessor.coprocessor import Coprocessor, CoprocessorConfig, eject, inject
from ncpu.coprocessor.data import number, training_batch
from ncpu.coprocessor.symbols import ANSWER_SYMBOLS, OPS, reference_result
from ncpu.coprocessor.units import NALUUnit


def train_coprocessor(model: nn.Module, tokenizer, config: CoprocessorConfig | None = None, steps: int = 1000,
                      batch: int = 32, seq_len: int = 64, max_len: int = 3, lr: float = 1e-2, seed: int = 0,
                      progress: Callable[..., None] | None = None) -> Coprocessor:
    """Train a new coprocessor on `model` (left frozen and unchanged); returns it, ejected, in its config's mode."""
    config = config or CoprocessorConfig()
    rng = random.Random(seed)
    torch.manual_seed(seed)
    model.requires_grad_(False)
    model.eval()
    inject(model, replace(config, mode="soft"))
    coprocessor = model.__dict__["_ncpu_coprocessor"]
    try:
        trainable = [p for p in coprocessor.parameters() if p.requires_grad]
        symbol_ids = torch.tensor([tokenizer.encode(symbol)[0] for symbol in ANSWER_SYMBOLS])
        optimizer = torch.optim.Adam(trainable, lr=lr)
        device = next(model.parameters()).device
        for step in range(steps):
            data = {k: v.to(device) for k, v in training_batch(rng, tokenizer, batch, seq_len, max_len).items()}
            coprocessor.records = []
            lm_loss = model(input_ids=data["input_ids"], labels=data["input_ids"]).loss
            read_loss = gate_loss = 0.0
            for record in coprocessor.records:
                read_loss = read_loss + F.cross_entropy(record["logits"].flatten(0, 1), data["classes"].flatten())
                gate_loss = gate_loss + F.binary_cross_entropy(record["p"].clamp(1e-6, 1 - 1e-6),
                                                               data["gate"].float())
            loss = lm_loss + read_loss + gate_loss + _lens_loss(coprocessor, symbol_ids)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            if progress:
                progress(step, loss.item(), lm_loss.item(), float(read_loss.detach()), float(gate_loss.detach()))
    finally:
        coprocessor.records = None
        eject(model)
    coprocessor.hard = config.mode == "hard"
    coprocessor.config = config
    return coprocessor


def _lens_loss(coprocessor: Coprocessor, symbol_ids: torch.Tensor):
    """Cross-entropy of the logit lens on each write-back vector alone vs its symbol's token."""
    norm, head = coprocessor._lens
    if head is None:
        return 0.0
    loss = 0.0
    for expert in coprocessor.experts.values():
        vectors = expert.gain * expert.write.weight                          # (12, C)
        weight = next(head.parameters())
        hidden = vectors.to(weight.dtype)
        logits = head(norm(hidden) if norm is not None else hidden).float()  # (12, vocab)
        loss = loss + F.cross_entropy(logits, symbol_ids.to(logits.device))
    return loss


def with_nalu(coprocessor: Coprocessor, steps: int = 2000, max_len: int = 3, seed: int = 0) -> Coprocessor:
    """The same trained coprocessor (read-out, gate, write-back) with a NALU
    head in the ALU's slot, the head fitted on training-range operands."""
    config = replace(coprocessor.config, unit="nalu", layers=tuple(coprocessor.layer_ids))
    nalu = Coprocessor(config, coprocessor.hidden_size, max(coprocessor.layer_ids) + 1)
    nalu.hard = coprocessor.hard
    missing = nalu.load_state_dict(coprocessor.state_dict(), strict=False).missing_keys
    assert all(".unit." in key for key in missing), missing
    unit = next(iter(nalu.experts.values())).unit
    train_nalu(unit, steps, max_len, seed)
    return nalu.to(next(coprocessor.parameters()).device)


def train_nalu(unit: NALUUnit, steps: int, max_len: int, seed: int = 0, batch: int = 256) -> list[float]:
    """Regression of every op's cell on random training-range operands; the
    loss is the error relative to the target's size (values span 1 to 10^6)."""
    rng = random.Random(seed)
    torch.manual_seed(seed)
    optimizer = torch.optim.Adam(unit.parameters(), lr=0.05)
    losses = []
    for _ in range(steps):
        pairs = [(number(rng, rng.randint(1, max_len)), number(rng, rng.randint(1, max_len)) or 1)
                 for _ in range(batch)]
        a = torch.tensor([p[0] for p in pairs])
        b = torch.tensor([p[1] for p in pairs])
        target = torch.tensor([[reference_result(op, x, y) for op in OPS] for x, y in pairs], dtype=torch.float64)
        values = unit.values(a, b)
        loss = ((values - target).abs() / (target.abs() + 1)).mean()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses
