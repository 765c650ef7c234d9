"""A character-level tokenizer: one token per character, so one per digit.

The expert reads one digit per token; tokenizers that group digits
(e.g. '123' as one token) are reported by `check_digit_tokens`.
"""

from __future__ import annotations

import json
from pathlib import Path

import torch

from ncpu.coprocessor.symbols import OP_SYMBOLS

FILENAME = "ncpu_chars.json"
PAD = "\0"
ALPHABET = PAD + "\n .,'" + "0123456789" + "".join(OP_SYMBOLS) + "=" + "abcdefghijklmnopqrstuvwxyz"


class CharTokenizer:
    def __init__(self, alphabet: str = ALPHABET):
        self.alphabet = alphabet
        self.index = {c: i for i, c in enumerate(alphabet)}
        self.pad_token_id = 0

    def __len__(self) -> int:
        return len(self.alphabet)

    def encode(self, text: str) -> list[int]:
        unknown = sorted(set(text) - set(self.index))
        if unknown:
            raise ValueError(f"characters outside the tokenizer's alphabet: {''.join(unknown)!r}")
        return [self.index[c] for c in text]

    def decode(self, ids) -> str:
        return "".join(self.alphabet[i] for i in ids if i != self.pad_token_id)

    def batch(self, texts: list[str], left_pad: bool = True) -> tuple[torch.Tensor, torch.Tensor]:
        """texts -> input_ids, attention_mask (B, T), padded on the left for generation."""
        return pad_batch([self.encode(t) for t in texts], self.pad_token_id, left_pad)

    def save(self, directory: Path | str) -> Path:
        path = Path(directory) / FILENAME
        path.write_text(json.dumps({"alphabet": self.alphabet}))
        return path

    @classmethod
    def load(cls, directory: Path | str) -> CharTokenizer:
        return cls(json.loads((Path(directory) / FILENAME).read_text())["alphabet"])


class HFTokenizer:
    """A Hugging Face tokenizer behind the same small surface."""

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer
        pad = tokenizer.pad_token_id
        self.pad_token_id = pad if pad is not None else (tokenizer.eos_token_id or 0)

    def __len__(self) -> int:
        return len(self.tokenizer)

    def encode(self, text: str) -> list[int]:
        return self.tokenizer.encode(text, add_special_tokens=False)

    def decode(self, ids) -> str:
        return self.tokenizer.decode([i for i in ids if i != self.pad_token_id])

    def batch(self, texts: list[str], left_pad: bool = True) -> tuple[torch.Tensor, torch.Tensor]:
        return pad_batch([self.encode(t) for t in texts], self.pad_token_id, left_pad)


def pad_batch(encoded: list[list[int]], pad_id: int, left_pad: bool) -> tuple[torch.Tensor, torch.Tensor]:
    width = max(len(e) for e in encoded)
    ids = torch.full((len(encoded), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(encoded), width), dtype=torch.long)
    for row, e in enumerate(encoded):
        span = slice(width - len(e), width) if left_pad else slice(0, len(e))
        ids[row, span] = torch.tensor(e, dtype=torch.long)
        mask[row, span] = 1
    return ids, mask


def check_digit_tokens(tokenizer) -> None:
    """Raise ValueError unless every digit of a number is its own token."""
    for sample in ("1234567890", "12+34=", "987*65="):
        pieces = [tokenizer.decode([i]) for i in tokenizer.encode(sample)]
        if pieces != list(sample):
            raise ValueError(f"the tokenizer splits {sample!r} as {pieces}; the coprocessor reads one "
                             "character per token (digit-level tokenizers such as Qwen2's or Llama 2's)")
