"""The dense layout (what the neural engine runs) is exact, and computes
what the cell form computes."""

import pytest
import torch

from ncpu.alu import build_alu
from ncpu.alu.alu import OPS
from ncpu.alu.dense import DenseALU
from ncpu.alu.verify import COMPOSITE, dense_flag_checks, exhaustive_checks, sampled_checks


@pytest.fixture(scope="module", params=["trained", "analytic"])
def source(request):
    return request.param


def test_dense_8_bit_instance_exhaustive(source):
    for check in exhaustive_checks(DenseALU(build_alu(8, source)), ops=COMPOSITE):
        assert check.inputs == 1 << 16 and check.ok, check


def test_dense_32_bit_random_and_boundary():
    # Trained weights only, to keep the suite short; `ncpu verify --weights analytic` samples the other.
    for check in sampled_checks(DenseALU(build_alu(32, "trained")), samples=20_000, seed=3, ops=COMPOSITE):
        assert check.ok, check


@pytest.mark.parametrize("layout", ["small", "large"])
def test_dense_batch_forms_8_bit_exhaustive(source, layout):
    # ADD/SUB/CMP and DIV/MOD have a small-batch form (fewest torch calls:
    # what the engine runs per instruction) and a large-batch one; each form
    # enumerated on its own, whatever the batch size.
    dense = DenseALU(build_alu(8, source)).set_batch_layout(layout)
    for check in exhaustive_checks(dense, ops=DenseALU.SMALL_BATCH_OPS, chunk=1 << 14):
        assert check.inputs == 1 << 16 and check.ok, check


@pytest.mark.parametrize("layout", ["small", "large"])
def test_dense_batch_forms_32_bit_random(layout):
    dense = DenseALU(build_alu(32, "trained")).set_batch_layout(layout)
    for check in sampled_checks(dense, samples=4_000, seed=4, ops=DenseALU.SMALL_BATCH_OPS, chunk=1 << 11):
        assert check.ok, check


def test_dense_small_batches_one_at_a_time():
    # Batch 1 (the engine's single-machine path) reuses preallocated buffers:
    # consecutive calls must not leak state into each other.
    dense = DenseALU(build_alu(32, "trained"))
    gen = torch.Generator().manual_seed(9)
    a = torch.randint(-(1 << 31), 1 << 31, (40,), generator=gen)
    b = torch.randint(-(1 << 31), 1 << 31, (40,), generator=gen) >> torch.randint(0, 31, (40,), generator=gen)
    from ncpu.alu.verify import reference_op
    for op in ("MUL", "DIV", "MOD"):
        for i in range(40):
            got = dense.compute(op, a[i:i + 1], b[i:i + 1])
            assert got.item() == reference_op(op, a[i:i + 1], b[i:i + 1], 32).item(), (op, a[i], b[i])


def test_dense_rejects_unknown_batch_layout():
    with pytest.raises(ValueError):
        DenseALU(build_alu(8, "analytic")).set_batch_layout("medium")


@pytest.mark.parametrize("width", [8, 16, 32])
def test_dense_flag_neurons_over_every_popcount(source, width):
    for check in dense_flag_checks(DenseALU(build_alu(width, source))):
        assert check.ok and check.margin > 0, check


def test_dense_equals_cell_form_at_32_bits():
    alu = build_alu(32, "trained")
    dense = DenseALU(alu)
    gen = torch.Generator().manual_seed(5)
    a = torch.randint(-(1 << 31), 1 << 31, (3000,), generator=gen)
    b = torch.randint(-(1 << 31), 1 << 31, (3000,), generator=gen)
    b[:1000] = torch.randint(-40, 40, (1000,), generator=gen)
    with torch.inference_mode():
        for op in OPS:
            x, y = (a[:300], b[:300]) if op in ("DIV", "MOD") else (a, b)
            assert torch.equal(dense.compute(op, x, y), alu.compute(op, x, y)), op
        assert all(torch.equal(p, q) for p, q in zip(dense.compare(a, b), alu.compare(a, b)))
        assert all(torch.equal(p, q) for p, q in zip(dense.zero_negative(a), alu.zero_negative(a)))
        value, zp, np_ = dense.compute_zn("ADD", torch.stack([a, b], 1)).unbind(1)
        z, n = alu.zero_negative(alu.compute("ADD", a, b))
        assert torch.equal(value.long(), alu.compute("ADD", a, b))
        assert torch.equal(zp > 0, z) and torch.equal(np_ > 0, n)


def test_dense_rejects_unknown_op():
    with pytest.raises(ValueError):
        DenseALU(build_alu(8, "analytic")).compute("FOO", torch.tensor([1]), torch.tensor([2]))
