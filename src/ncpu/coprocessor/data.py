"""Synthetic text: arithmetic problems and plain sentences, with the labels
the coprocessor's supervised parts train on.

Every character comes with three labels, known from how the text was made:
its read-out class (`symbols.char_class`), whether the ALU should answer at
that position (the gate target: '=' and every answer character but the
last newline, i.e. the positions whose next character is the answer), and
its kind (for routing statistics, `KINDS`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import torch

from ncpu.coprocessor.symbols import END, OPS, SYMBOL_OF, char_class, reference_result

KINDS = ("text", "text digit", "operand digit", "op symbol", "equals", "answer", "newline")
INT32_MAX = (1 << 31) - 1

_SUBJECTS = ["the cat", "a dog", "my friend", "the old man", "our teacher", "the bird", "a child", "the farmer",
             "her brother", "the small robot", "the captain", "a fox"]
_VERBS = ["sees", "likes", "finds", "carries", "paints", "follows", "builds", "reads", "keeps", "wants"]
_OBJECTS = ["the red ball", "a long letter", "the green door", "an apple", "the river", "a quiet song",
            "the map", "a wooden box", "the moon", "some bread", "the garden", "a new hat"]
_TAILS = ["", " today", " at night", " in the morning", " near the hill", " with care", " again",
          " after lunch", " by the sea"]
_COUNTED = ["apples", "boats", "birds", "pages", "stones", "coins", "days"]


@dataclass(frozen=True)
class Problem:
    op: str
    a: int
    b: int

    @property
    def prompt(self) -> str:
        return f"{self.a}{SYMBOL_OF[self.op]}{self.b}="

    @property
    def answer(self) -> str:
        return str(reference_result(self.op, self.a, self.b))


def number(rng: random.Random, digits: int) -> int:
    """A number with exactly `digits` decimal digits (0-9 for one digit)."""
    return rng.randrange(10 ** (digits - 1) if digits > 1 else 0, 10 ** digits)


def valid(problem: Problem) -> bool:
    if problem.op in ("DIV", "MOD") and problem.b == 0:
        return False
    return -INT32_MAX - 1 <= reference_result(problem.op, problem.a, problem.b) <= INT32_MAX


def training_problem(rng: random.Random, max_len: int) -> Problem:
    """Both operands of 1..max_len digits, any op."""
    while True:
        problem = Problem(rng.choice(OPS), number(rng, rng.randint(1, max_len)), number(rng, rng.randint(1, max_len)))
        if valid(problem):
            return problem


def eval_problems(rng: random.Random, op: str, length: int, n: int) -> list[Problem]:
    """First operand of exactly `length` digits, second of 1..length, result in 32 bits."""
    problems = []
    while len(problems) < n:
        problem = Problem(op, number(rng, length), number(rng, rng.randint(1, length)))
        if valid(problem):
            problems.append(problem)
    return problems


def sentence(rng: random.Random) -> str:
    words = f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)}{rng.choice(_TAILS)}"
    if rng.random() < 0.3:  # numbers in prose: the gate should leave them alone
        words += f", and {rng.randint(2, 999)} {rng.choice(_COUNTED)}"
    return words + "."


def labelled_line(rng: random.Random, max_len: int, arithmetic_share: float) -> tuple[str, list[int], list[int]]:
    """One line with its newline: (text, gate targets, kinds) per character."""
    if rng.random() >= arithmetic_share:
        text = sentence(rng)
        kinds = [KINDS.index("text digit" if c.isdigit() else "text") for c in text]
        return text + END, [0] * (len(text) + 1), kinds + [KINDS.index("newline")]
    problem = training_problem(rng, max_len)
    return problem_line(problem)


def problem_line(problem: Problem) -> tuple[str, list[int], list[int]]:
    prompt, answer = problem.prompt, problem.answer
    kinds = [KINDS.index("operand digit" if c.isdigit() else "op symbol") for c in prompt[:-1]]
    kinds += [KINDS.index("equals")] + [KINDS.index("answer")] * len(answer) + [KINDS.index("newline")]
    gate = [0] * (len(prompt) - 1) + [1] * (len(answer) + 1) + [0]
    return prompt + answer + END, gate, kinds


def training_batch(rng: random.Random, tokenizer, batch: int, seq_len: int, max_len: int,
                   arithmetic_share: float = 0.5) -> dict[str, torch.Tensor]:
    """Rows of `seq_len` characters, each starting after a newline. Tensors (B, T):
    input_ids, classes (read-out targets), gate (targets), kinds."""
    rows = {"input_ids": [], "classes": [], "gate": [], "kinds": []}
    for _ in range(batch):
        text, gate, kinds = END, [0], [KINDS.index("newline")]
        while len(text) < seq_len:
            line, g, k = labelled_line(rng, max_len, arithmetic_share)
            text, gate, kinds = text + line, gate + g, kinds + k
        text, gate, kinds = text[:seq_len], gate[:seq_len], kinds[:seq_len]
        rows["input_ids"].append(tokenizer.encode(text))
        rows["classes"].append([char_class(c) for c in text])
        rows["gate"].append(gate)
        rows["kinds"].append(kinds)
    return {name: torch.tensor(values) for name, values in rows.items()}


def held_out_text(seed: int, n_lines: int) -> list[str]:
    """Non-arithmetic lines from a generator seeded apart from training."""
    rng = random.Random(seed)
    return [END + sentence(rng) + END for _ in range(n_lines)]
