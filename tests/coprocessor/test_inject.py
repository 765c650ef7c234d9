"""inject / eject on Hugging Face models of three families: the hooks, the
base weights left bit for bit, generate() with and without the KV cache,
padded batches, saving, dtypes and bad input."""

import copy

import pytest
import torch
from torch import nn

from ncpu.coprocessor import (CoprocessorConfig, CoprocessorError, eject, find_decoder_layers, inject,
                              injected, load_coprocessor)
from ncpu.coprocessor.gate import Gate
from ncpu.coprocessor.pipeline import WEIGHTS_DIR, load_trained
from ncpu.coprocessor.train import train_coprocessor

from coprocessor_helpers import TOKENIZER, tiny_model

ARCHS = ("qwen2", "llama", "gpt2")
PROMPTS = ["\n12+345=", "\n7*8=", "\nthe cat sees 3 birds.\n", "\n123456789-987654=", "\n40%7="]


def _logits(model, texts):
    ids, mask = TOKENIZER.batch(texts, left_pad=False)
    with torch.no_grad():
        return model(input_ids=ids, attention_mask=mask).logits


@pytest.mark.parametrize("arch", ARCHS)
def test_layers_found_and_a_closed_gate_changes_nothing(arch):
    model = tiny_model(arch)
    _, layers = find_decoder_layers(model)
    assert len(layers) == model.config.num_hidden_layers
    before = _logits(model, PROMPTS)
    inject(model, CoprocessorConfig(layers=(0, -1)))
    coprocessor = injected(model)
    assert coprocessor.layer_ids == [0, len(layers) - 1]
    with torch.no_grad():  # shut every gate: the model must compute exactly what it did
        for gate in coprocessor.gates.values():
            gate.proj.weight.zero_()
            gate.proj.bias.fill_(-30.0)
    assert torch.equal(_logits(model, PROMPTS), before)
    eject(model)
    assert injected(model) is None


@pytest.mark.parametrize("arch", ARCHS)
def test_base_weights_bit_for_bit_after_training_and_eject(arch):
    model = tiny_model(arch)
    before = {k: v.clone() for k, v in model.state_dict().items()}
    coprocessor = train_coprocessor(model, TOKENIZER, steps=3, batch=4, seq_len=32)
    inject(model, coprocessor)
    assert set(model.state_dict()) == set(before)  # nothing registered in the model
    ids, mask = TOKENIZER.batch(PROMPTS)
    model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=4, do_sample=False, pad_token_id=0)
    eject(model)
    after = model.state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)
    assert not any(k.startswith("experts.0.unit") for k in coprocessor.state_dict())  # the ALU is not saved


@pytest.fixture(scope="module")
def trained():
    """The shipped small Qwen2 and its coprocessor (`ncpu coprocessor train --size small`)."""
    model, _, coprocessors = load_trained(WEIGHTS_DIR / "small")
    return model, coprocessors["alu"]


def _generate(model, texts, **kwargs):
    ids, mask = TOKENIZER.batch(texts)
    with torch.no_grad():
        out = model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=12, do_sample=False,
                             pad_token_id=0, eos_token_id=None, **kwargs)
    return [TOKENIZER.decode(row[ids.shape[1]:].tolist()).split("\n")[0] for row in out]


def test_generate_answers_past_training_lengths_with_and_without_cache(trained):
    model, coprocessor = trained
    problems = ["12345678+87654321=", "999999*2047=", "123456789-987654321=", "98765432/123=", "77777777%1234=",
                "12345678^87654=", "5<123456="]
    inject(model, coprocessor)
    try:
        cached = _generate(model, ["\n" + p for p in problems])
        uncached = _generate(model, ["\n" + p for p in problems], use_cache=False)
        alone = [_generate(model, ["\n" + p])[0] for p in problems[:3]]  # no padding
    finally:
        eject(model)
    expected = [str(eval(p[:-1].replace("/", "//"))) if "<" not in p else "1" for p in problems]
    assert cached == expected
    assert uncached == cached
    assert alone == cached[:3]


def test_save_and_load_give_the_same_answers(trained, tmp_path):
    model, coprocessor = trained
    path = coprocessor.save(tmp_path / "c.pt")
    assert path.stat().st_size < 100_000
    loaded = load_coprocessor(path)
    for c in (coprocessor, loaded):
        inject(model, c)
        try:
            logits = _logits(model, PROMPTS)
        finally:
            eject(model)
        if c is coprocessor:
            reference = logits
    assert torch.equal(logits, reference)


def test_injecting_twice_is_an_error_and_eject_needs_an_injection(trained):
    model, coprocessor = trained
    inject(model, coprocessor)
    try:
        with pytest.raises(CoprocessorError, match="already injected"):
            inject(model, CoprocessorConfig())
    finally:
        eject(model)
    with pytest.raises(CoprocessorError, match="no coprocessor"):
        eject(model)


def test_a_model_without_decoder_layers_is_rejected_by_name():
    with pytest.raises(CoprocessorError, match="`mlp` submodule"):
        inject(nn.Sequential(nn.Linear(4, 4), nn.ReLU()), CoprocessorConfig())


@pytest.mark.parametrize("bad, message", [(dict(gate="maybe"), "gate"), (dict(mode="fast"), "mode"),
                                          (dict(max_gate=1.5), "max_gate"), (dict(unit="fpu"), "unit"),
                                          (dict(layers=(7,)), "out of range")])
def test_bad_configs(bad, message):
    with pytest.raises(CoprocessorError, match=message):
        inject(tiny_model(), CoprocessorConfig(**bad))


def test_other_dtypes_and_a_coprocessor_left_on_another_device(trained):
    model, coprocessor = trained
    reference = None
    for dtype in (torch.float32, torch.float64, torch.bfloat16):
        typed = copy.deepcopy(model).to(dtype)
        inject(typed, coprocessor)
        try:
            assert _logits(typed, PROMPTS[:1]).dtype == dtype
            answers = _generate(typed, ["\n12345678+87654321="])
        finally:
            eject(typed)
        reference = reference or answers
        assert answers == reference == ["99999999"]


def test_gates_cap_and_top1_choose_one_path():
    x = torch.randn(2, 5, 8)
    answering = torch.tensor([[0, 1, 1, 0, 1], [1, 0, 0, 1, 1]]).bool()
    ones = torch.ones(2, 5)
    p, w_mlp, w_alu = Gate(8, "sigmoid", max_gate=0.7)(x, answering, ones, hard=False)
    assert (w_alu <= 0.7).all() and torch.allclose(w_mlp + w_alu, ones)
    p, w_mlp, w_alu = Gate(8, "top1")(x, answering, ones, hard=True)
    assert ((w_mlp == 0) ^ (w_alu == 0)).all()
    assert torch.equal(w_alu > 0, answering)  # the initial prior: the ALU where the expert answers
    p, _, w_alu = Gate(8, "sigmoid")(x, answering, torch.zeros(2, 5), hard=True)
    assert (w_alu == 0).all()  # fully damped: a confident base model keeps its MLP


def test_confidence_aware_gating_only_lowers_the_gate(trained):
    model, coprocessor = trained
    gates = {}
    coprocessor.config.confidence_threshold = 0.0  # an untrained base is never sure: damp by (1 - top prob)
    for confidence in (False, True):
        coprocessor.config.confidence = confidence
        inject(model, coprocessor)
        coprocessor.records = []
        try:
            _logits(model, PROMPTS)
            gates[confidence] = coprocessor.records[0]["p"]
        finally:
            coprocessor.records = None
            eject(model)
    coprocessor.config.confidence, coprocessor.config.confidence_threshold = False, 0.9
    assert (gates[True] <= gates[False] + 1e-6).all()
    assert (gates[True] < gates[False] - 1e-3).any()
