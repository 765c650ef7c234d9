"""The base language models trained here: small Hugging Face causal LMs
over the character tokenizer, trained from scratch on synthetic text."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable

import torch
from torch import nn

from ncpu.coprocessor.data import training_batch
from ncpu.coprocessor.tokenizer import FILENAME, CharTokenizer, HFTokenizer

ARCHS = ("qwen2", "llama", "gpt2")
# name -> (hidden size, layers, heads); the MLP is 4x wide
SIZES = {"tiny": (32, 2, 2), "small": (64, 3, 4), "medium": (128, 4, 4)}
MAX_POSITIONS = 128


def build_lm(arch: str = "qwen2", size: str = "small", vocab_size: int = 64, seed: int = 0) -> nn.Module:
    import transformers as tf

    if arch not in ARCHS:
        raise ValueError(f"arch must be one of {', '.join(ARCHS)}, not {arch!r}")
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}, not {size!r}")
    hidden, layers, heads = SIZES[size]
    torch.manual_seed(seed)
    if arch == "gpt2":
        config = tf.GPT2Config(vocab_size=vocab_size, n_embd=hidden, n_layer=layers, n_head=heads,
                               n_positions=MAX_POSITIONS, bos_token_id=0, eos_token_id=0, pad_token_id=0)
        return tf.GPT2LMHeadModel(config)
    common = dict(vocab_size=vocab_size, hidden_size=hidden, intermediate_size=4 * hidden,
                  num_hidden_layers=layers, num_attention_heads=heads, num_key_value_heads=heads,
                  max_position_embeddings=MAX_POSITIONS, bos_token_id=0, eos_token_id=0, pad_token_id=0,
                  tie_word_embeddings=True)
    if arch == "llama":
        return tf.LlamaForCausalLM(tf.LlamaConfig(**common))
    return tf.Qwen2ForCausalLM(tf.Qwen2Config(**common))


def train_lm(model: nn.Module, tokenizer, steps: int, batch: int = 32, seq_len: int = 64, max_len: int = 3,
             lr: float = 3e-3, seed: int = 0, progress: Callable[[int, float], None] | None = None) -> list[float]:
    """Next-character loss on a half-arithmetic, half-prose stream; returns the losses."""
    rng = random.Random(seed)
    torch.manual_seed(seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr, total_steps=max(steps, 1), pct_start=0.1)
    device = next(model.parameters()).device
    model.train()
    losses = []
    for step in range(steps):
        ids = training_batch(rng, tokenizer, batch, seq_len, max_len)["input_ids"].to(device)
        loss = model(input_ids=ids, labels=ids).loss
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        losses.append(loss.item())
        if progress:
            progress(step, losses[-1])
    model.eval()
    return losses


def save_lm(model: nn.Module, tokenizer: CharTokenizer, directory: Path | str) -> Path:
    directory = Path(directory)
    model.save_pretrained(directory)
    tokenizer.save(directory)
    return directory


def load_lm(directory: Path | str, device: str | torch.device = "cpu"):
    """(model, tokenizer) from a directory written by `save_pretrained`: the
    character tokenizer if one is saved there, else the directory's own."""
    import transformers as tf

    directory = Path(directory)
    if not (directory / "config.json").exists():
        raise FileNotFoundError(f"{directory} holds no Hugging Face model (no config.json)")
    model = tf.AutoModelForCausalLM.from_pretrained(directory).to(device)
    model.eval()
    if (directory / FILENAME).exists():
        tokenizer = CharTokenizer.load(directory)
    else:
        tokenizer = HFTokenizer(tf.AutoTokenizer.from_pretrained(directory))
    return model, tokenizer
