"""Exactness of the neural ALU: 8-bit enumeration, 32-bit samples, cells,
trained weights, training reproducibility, and the soft variant's gradients."""

import pytest
import torch

from ncpu.alu import build_alu
from ncpu.alu.train import train_logic, train_multiplier
from ncpu.alu.verify import (COMPOSITE, cell_checks, exhaustive_checks, reference_self_check,
                             sampled_checks)
from ncpu.alu.alu import NeuralALU
from ncpu.alu.threshold import heaviside


@pytest.fixture(scope="module", params=["trained", "analytic"])
def source(request):
    return request.param


@pytest.mark.parametrize("width", [8, 16, 32])
def test_every_cell_is_exact_on_its_truth_table(source, width):
    for check in cell_checks(build_alu(width, source)):
        assert check.ok, check
        assert check.margin > 0, check


@pytest.mark.parametrize("op", COMPOSITE)
def test_8_bit_instance_exhaustive(source, op):
    (check,) = exhaustive_checks(build_alu(8, source), ops=(op,))
    assert check.inputs == 1 << 16 and check.ok, check


def test_unary_ops_enumerate_each_input_once():
    # --exhaustive16 runs NOT, NEG and ZN over their 2^n inputs (they ignore b).
    checks = list(exhaustive_checks(build_alu(8, "trained"), ops=("NOT", "ZN", "XOR"), chunk=100,
                                    unary_values_only=True))
    assert [c.inputs for c in checks] == [256, 256, 1 << 16] and all(c.ok for c in checks)


def test_32_bit_random_and_boundary(source):
    ops = [op for op in COMPOSITE if op not in ("DIV", "MOD")]
    for check in sampled_checks(build_alu(32, source), samples=20_000, seed=1, ops=ops):
        assert check.ok, check


def test_32_bit_division_sampled():
    # The cell form's divider (the engine runs the dense one, sampled in test_dense.py);
    # trained weights only, to keep the suite short.
    for check in sampled_checks(build_alu(32, "trained"), samples=2_000, seed=2, ops=("DIV", "MOD")):
        assert check.ok, check


def test_reference_matches_semantics():
    assert reference_self_check().ok


def test_training_is_reproducible_and_exact():
    def train(seed):
        alu = NeuralALU(8)
        gen = torch.Generator().manual_seed(seed)
        results = train_logic(alu, gen) + train_multiplier(alu, gen)
        return alu, results
    first, results = train(3)
    second, _ = train(3)
    other, _ = train(4)
    assert all(r.margin >= 0.25 for r in results)
    for name, value in first.state_dict().items():
        assert torch.equal(value, second.state_dict()[name]), name
    assert not torch.equal(first.logic.w["and"], other.logic.w["and"])


def test_soft_variant_gradient_steps_move_output_toward_target():
    """Straight-through: hard values forward, sigmoid gradients backward.
    Operand a is relaxed to bit logits; gradient steps on them move the
    exact output of ADD(a, 4) from 6 toward the target 13."""
    alu = build_alu(8, "trained")
    b = alu.to_bits(torch.tensor([4]))
    weights = 2.0 ** torch.arange(8)
    theta = (alu.to_bits(torch.tensor([2])) * 2 - 1).requires_grad_(True)
    opt = torch.optim.SGD([theta], lr=0.05)
    distances = []
    for _ in range(5):
        out = alu.op_bits("ADD", heaviside(theta, 1.0), b, temperature=1.0)
        value = (out * weights).sum()
        distances.append(abs(value.item() - 13))
        opt.zero_grad()
        ((value - 13) ** 2).backward()
        opt.step()
    assert distances[0] == 7
    assert min(distances[1:]) < distances[0]


def test_soft_gradients_reach_circuit_parameters():
    alu = build_alu(8, "trained")
    alu.requires_grad_(True)
    a, b = alu.to_bits(torch.tensor([3])), alu.to_bits(torch.tensor([5]))
    product = alu.op_value_zn("MUL", a, b, temperature=1.0)[:, 0]
    assert product.item() == 15  # forward values stay exact
    (product - 14).pow(2).sum().backward()
    assert alu.multiplier.product_logits.grad.abs().sum() > 0
    total = alu.op_bits("ADD", a, b, temperature=1.0)
    ((total * 2.0 ** torch.arange(8)).sum() - 7).pow(2).backward()
    assert alu.adder.carry_a.grad is not None


def test_soft_divider_passes_gradients_to_its_operands():
    """The divider has no trained parameters; with a temperature its
    comparisons pass sigmoid gradients back to the operand bits."""
    alu = build_alu(8, "trained")
    a = alu.to_bits(torch.tensor([100])).requires_grad_(True)
    b = alu.to_bits(torch.tensor([7]))
    quotient = alu.op_value_zn("DIV", a, b, temperature=1.0)[:, 0]
    assert quotient.item() == 14
    quotient.sum().backward()
    assert a.grad is not None and a.grad.abs().sum() > 0


def test_soft_adder_gradient_reaches_inputs():
    alu = build_alu(8, "analytic")
    a = alu.to_bits(torch.tensor([9])).requires_grad_(True)
    b = alu.to_bits(torch.tensor([4]))
    out = alu.op_bits("ADD", a, b, temperature=0.5)
    assert alu.to_int(out).item() == 13
    (out * 2.0 ** torch.arange(8)).sum().backward()
    assert a.grad is not None and a.grad.abs().sum() > 0
