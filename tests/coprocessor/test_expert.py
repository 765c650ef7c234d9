"""The expert's scan + neural ALU + decimal write-back against Python's
arithmetic, with a hand-set read-out (no training): every op, operands of
1-9 digits, negative results, padding, and token-by-token streaming."""

import random

import pytest
import torch

from ncpu.coprocessor.data import Problem, eval_problems
from ncpu.coprocessor.expert import ScanState
from ncpu.coprocessor.symbols import ANSWER_SYMBOLS, END, OPS, decimal_codes

from coprocessor_helpers import one_hot_expert, one_hot_states, written_symbols


def test_decimal_codes_match_str():
    rng = random.Random(0)
    values = [0, 1, -1, 9, 10, -10, (1 << 31) - 1, -(1 << 31)] + [rng.randint(-(1 << 31), (1 << 31) - 1)
                                                                      for _ in range(500)]
    codes = decimal_codes(torch.tensor(values))
    for value, row in zip(values, codes.tolist()):
        assert "".join(ANSWER_SYMBOLS[c] for c in row).split(END)[0] == str(value)


def _expected(problem: Problem) -> str:
    return problem.answer + END  # written at '=' and at every answer character


@pytest.mark.parametrize("op", OPS)
def test_scan_and_alu_answer_every_op_at_every_length(op):
    rng = random.Random(op)
    problems = [p for length in range(1, 10) for p in eval_problems(rng, op, length, 4)]
    texts = [END + p.prompt + p.answer + END for p in problems]
    x, mask = one_hot_states(texts)
    expert = one_hot_expert()
    written, answering, _, _ = expert(x, x, mask, ScanState.empty(len(texts), "cpu"), hard=True)
    assert written_symbols(written, answering) == [_expected(p) for p in problems]


def test_subtraction_below_zero_and_several_problems_per_row():
    problems = [Problem("SUB", 3, 250), Problem("MUL", 12, 0), Problem("MOD", 7, 9)]
    text = "the cat, and 12 birds.\n" + "".join(p.prompt + p.answer + END for p in problems)
    x, mask = one_hot_states([text])
    written, answering, _, _ = one_hot_expert()(x, x, mask, ScanState.empty(1, "cpu"), hard=True)
    assert written_symbols(written, answering) == ["".join(_expected(p) for p in problems)]


def test_streaming_one_token_per_call_matches_one_call():
    problems = [Problem("ADD", 123456789, 987), Problem("DIV", 9999, 7)]
    texts = [END + p.prompt + p.answer + END for p in problems]
    x, mask = one_hot_states(texts)
    expert = one_hot_expert()
    whole, whole_on, _, _ = expert(x, x, mask, ScanState.empty(2, "cpu"), hard=True)
    prefix = 5
    state = ScanState.empty(2, "cpu")
    parts, parts_on = [], []
    out, on, _, state = expert(x[:, :prefix], x[:, :prefix], mask[:, :prefix], state, hard=True)
    parts.append(out), parts_on.append(on)
    for t in range(prefix, x.shape[1]):
        out, on, _, state = expert(x[:, t:t + 1], x[:, t:t + 1], mask[:, t:t + 1], state, hard=True)
        parts.append(out), parts_on.append(on)
    assert torch.equal(torch.cat(parts_on, 1), whole_on)
    assert torch.equal(torch.cat(parts, 1), whole)


def test_padding_is_skipped():
    problem = Problem("XOR", 1234, 99)
    text = END + problem.prompt + problem.answer + END
    x, mask = one_hot_states([text, "1+" + text], left_pad=True)  # row 0 left-padded by 2
    x[0, :2] = 0
    x[0, :2, 3] = 1  # junk digits under the padding must not be typed
    written, answering, _, _ = one_hot_expert()(x, x, mask, ScanState.empty(2, "cpu"), hard=True)
    assert written_symbols(written, answering) == [_expected(problem), "" + _expected(problem)]
