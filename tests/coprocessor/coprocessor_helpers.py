"""Tiny random models of each family and an expert whose read-out and
write-back are set by hand (one-hot), so the keypad scan, the ALU and the
decimal codes can be checked against Python without any training."""

from __future__ import annotations

import torch

from ncpu.coprocessor.expert import Expert
from ncpu.coprocessor.symbols import ANSWER_SYMBOLS, N_CLASSES, char_class
from ncpu.coprocessor.tokenizer import CharTokenizer
from ncpu.coprocessor.units import ALUUnit

TOKENIZER = CharTokenizer()


def tiny_model(arch: str = "qwen2", seed: int = 0):
    from ncpu.coprocessor.lm import build_lm

    return build_lm(arch, "tiny", len(TOKENIZER), seed).eval()


def one_hot_expert() -> Expert:
    """Hidden size N_CLASSES; token t's hidden state is one_hot(class(t)); the
    write-back writes one_hot(answer symbol)."""
    expert = Expert(N_CLASSES, ALUUnit())
    with torch.no_grad():
        expert.read.weight.copy_(10 * torch.eye(N_CLASSES))
        expert.read.bias.zero_()
        expert.write.weight.zero_()
        expert.write.weight[:, :len(ANSWER_SYMBOLS)] = torch.eye(len(ANSWER_SYMBOLS))
    return expert


def one_hot_states(texts: list[str], left_pad: bool = True) -> tuple[torch.Tensor, torch.Tensor]:
    """(B, T, N_CLASSES) one-hot class states and the (B, T) mask."""
    width = max(len(t) for t in texts)
    x = torch.zeros(len(texts), width, N_CLASSES)
    mask = torch.zeros(len(texts), width, dtype=torch.bool)
    for row, text in enumerate(texts):
        offset = width - len(text) if left_pad else 0
        for i, char in enumerate(text):
            x[row, offset + i, char_class(char)] = 1
            mask[row, offset + i] = True
    return x, mask


def written_symbols(written: torch.Tensor, answering: torch.Tensor) -> list[str]:
    """What the write-back wrote at each answering position, per row."""
    codes = written[..., :len(ANSWER_SYMBOLS)].argmax(-1)
    return ["".join(ANSWER_SYMBOLS[c] for c, a in zip(row_codes.tolist(), row_on.tolist()) if a)
            for row_codes, row_on in zip(codes, answering)]
