"""Measuring a model with and without the coprocessor, on held-out problems.

    exact_match_table  greedy `generate()` on 'A<op>B=' prompts, exact match per op and length
    perplexity         per-character perplexity on held-out prose
    routing            share of tokens the gate sends to the ALU, per kind of token
"""

from __future__ import annotations

import math
import random
from typing import Callable

import torch
from torch import nn
from torch.nn import functional as F

from ncpu.coprocessor.coprocessor import injected
from ncpu.coprocessor.data import KINDS, eval_problems, held_out_text, training_batch
from ncpu.coprocessor.symbols import ANSWER_LEN, END, OPS

# First operands have up to 9 digits (2^31 has 10); a problem whose result leaves
# 32 bits (MUL with a long second operand) is resampled, see data.eval_problems.


def answers(model: nn.Module, tokenizer, prompts: list[str], batch_size: int = 256) -> list[str]:
    """Greedy completions (up to the first newline) of each prompt, left-padded batches."""
    device = next(model.parameters()).device
    out = []
    for start in range(0, len(prompts), batch_size):
        chunk = [END + p for p in prompts[start:start + batch_size]]
        ids, mask = tokenizer.batch(chunk)
        with torch.no_grad():
            generated = model.generate(input_ids=ids.to(device), attention_mask=mask.to(device),
                                       max_new_tokens=ANSWER_LEN + 1, do_sample=False,
                                       pad_token_id=tokenizer.pad_token_id, eos_token_id=None)
        for row in generated[:, ids.shape[1]:].tolist():
            out.append(tokenizer.decode(row).split(END)[0])
    return out


def exact_match_table(model: nn.Module, tokenizer, lengths: range, n: int, seed: int = 1000,
                      ops: tuple[str, ...] = OPS, progress: Callable[[int], None] | None = None
                      ) -> dict[str, dict[int, float]]:
    """{op: {length: exact-match share}} over `n` held-out problems per cell (seeded apart from
    training), generated together in mixed batches."""
    cells = [(op, length) for op in ops for length in lengths]
    problems = [p for op, length in cells for p in eval_problems(random.Random(f"{seed}-{op}-{length}"), op, length, n)]
    got = []
    for start in range(0, len(problems), 256):
        chunk = [p.prompt for p in problems[start:start + 256]]
        got += answers(model, tokenizer, chunk)
        if progress:
            progress(len(chunk))
    table: dict[str, dict[int, float]] = {op: {} for op in ops}
    for index, (op, length) in enumerate(cells):
        span = slice(index * n, (index + 1) * n)
        table[op][length] = sum(g == p.answer for g, p in zip(got[span], problems[span])) / n
    return table


def perplexity(model: nn.Module, tokenizer, seed: int = 2000, n_lines: int = 400) -> float:
    """exp(mean next-character loss) over held-out prose lines."""
    device = next(model.parameters()).device
    lines = held_out_text(seed, n_lines)
    total, count = 0.0, 0
    for start in range(0, len(lines), 100):
        ids, mask = tokenizer.batch(lines[start:start + 100], left_pad=False)
        ids, mask = ids.to(device), mask.to(device)
        with torch.no_grad():
            logits = model(input_ids=ids, attention_mask=mask).logits[:, :-1].float()
        target = ids[:, 1:].masked_fill(mask[:, 1:] == 0, -100)
        total += F.cross_entropy(logits.flatten(0, 1), target.flatten(), ignore_index=-100, reduction="sum").item()
        count += int((target != -100).sum())
    return math.exp(total / count)


def routing(model: nn.Module, tokenizer, seed: int = 3000, batch: int = 64, seq_len: int = 64,
            max_len: int = 3) -> dict[str, float]:
    """Share of tokens with ALU weight > 1/2, per kind of token, on held-out mixed text."""
    coprocessor = injected(model)
    if coprocessor is None:
        raise ValueError("routing statistics need an injected coprocessor")
    device = next(model.parameters()).device
    data = training_batch(random.Random(seed), tokenizer, batch, seq_len, max_len)
    coprocessor.records = []
    try:
        with torch.no_grad():
            model(input_ids=data["input_ids"].to(device))
        routed = torch.stack([r["w_alu"] > 0.5 for r in coprocessor.records]).any(0).cpu()  # (B, T)
    finally:
        coprocessor.records = None
    kinds = data["kinds"]
    return {kind: routed[kinds == i].float().mean().item() for i, kind in enumerate(KINDS) if (kinds == i).any()}


def mean(values) -> float:
    values = list(values)
    return sum(values) / len(values) if values else float("nan")


def report(model: nn.Module, tokenizer, coprocessors: dict, lengths: range, n: int,
           progress: Callable[[int], None] | None = None) -> dict:
    """The whole evaluation: the base model, then each named coprocessor injected in turn.
    {'exact': {name: table}, 'perplexity': {name: ppl}, 'routing': {name: shares}}."""
    from ncpu.coprocessor.coprocessor import eject, inject

    result = {"exact": {}, "perplexity": {}, "routing": {}}
    result["exact"]["base"] = exact_match_table(model, tokenizer, lengths, n, progress=progress)
    result["perplexity"]["base"] = perplexity(model, tokenizer)
    for name, coprocessor in coprocessors.items():
        inject(model, coprocessor)
        try:
            result["exact"][name] = exact_match_table(model, tokenizer, lengths, n, progress=progress)
            result["perplexity"][name] = perplexity(model, tokenizer)
            result["routing"][name] = routing(model, tokenizer)
        finally:
            eject(model)
    return result
