"""Where the trained models live, and the train-everything recipe behind
`ncpu coprocessor train`: base LM from scratch, then the coprocessor on the
frozen base, then the NALU comparison head in the same slot."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import torch

from ncpu.coprocessor.coprocessor import CoprocessorConfig, load_coprocessor
from ncpu.coprocessor.lm import build_lm, load_lm, save_lm, train_lm
from ncpu.coprocessor.tokenizer import CharTokenizer
from ncpu.coprocessor.train import train_coprocessor, with_nalu

WEIGHTS_DIR = Path(__file__).parent / "weights"
COPROCESSOR_FILE = "coprocessor.pt"
NALU_FILE = "nalu.pt"


def train_all(directory: Path | str, arch: str = "qwen2", size: str = "small", lm_steps: int = 2000,
              coprocessor_steps: int = 1000, nalu_steps: int = 2000, max_len: int = 3, seed: int = 0,
              config: CoprocessorConfig | None = None, progress: Callable[[str, int, float], None] | None = None,
              reuse_base: bool = False) -> Path:
    """Train and save everything to `directory`; with `reuse_base`, keep the base model
    already saved there and train only the coprocessor and the NALU head."""
    directory = Path(directory)
    if reuse_base:
        model, tokenizer = load_lm(directory)
    else:
        tokenizer = CharTokenizer()
        model = build_lm(arch, size, len(tokenizer), seed)
        train_lm(model, tokenizer, lm_steps, max_len=max_len, seed=seed,
                 progress=progress and (lambda step, loss: progress("lm", step, loss)))
        save_lm(model, tokenizer, directory)
    coprocessor = train_coprocessor(model, tokenizer, config, coprocessor_steps, max_len=max_len, seed=seed + 1,
                                    progress=progress and (lambda step, loss, *_: progress("coprocessor", step, loss)))
    coprocessor.save(directory / COPROCESSOR_FILE)
    with_nalu(coprocessor, nalu_steps, max_len, seed + 2).save(directory / NALU_FILE)
    return directory


def load_trained(directory: Path | str, device: str | torch.device = "cpu"):
    """(model, tokenizer, {'alu': coprocessor, 'nalu': ...}) as `train_all` saved them."""
    directory = Path(directory)
    model, tokenizer = load_lm(directory, device)
    coprocessors = {name: load_coprocessor(directory / file, device)
                    for name, file in (("alu", COPROCESSOR_FILE), ("nalu", NALU_FILE)) if (directory / file).exists()}
    return model, tokenizer, coprocessors
