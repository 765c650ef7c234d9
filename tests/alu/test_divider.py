"""The radix-2^k divider: exact in every radix, its two evaluations agree,
and its arithmetic stays inside float64's exact range."""

import pytest
import torch

from ncpu.alu.divider import RadixDivider, SmallBatchDivider
from ncpu.alu.verify import all_pairs, boundary_values, reference_op


def _expected(a, b, n):
    q, r = reference_op("DIV", a, b, n), reference_op("MOD", a, b, n)
    return torch.stack([q, q == 0, q < 0, r, r == 0, r < 0], 1)


def _got(out):
    return torch.stack([out[:, 0].long(), out[:, 1] > 0, out[:, 2] > 0,
                        out[:, 3].long(), out[:, 4] > 0, out[:, 5] > 0], 1)


@pytest.mark.parametrize("digit_bits", range(1, 9))
def test_every_radix_exact_on_all_8_bit_pairs(digit_bits):
    divider = RadixDivider(8, digit_bits)
    a, b = all_pairs(8)
    margins = []
    with torch.inference_mode():
        out = divider(torch.stack([a, b], 1).double(), margins=margins)
    assert divider.steps == -(-8 // digit_bits)
    assert torch.equal(_got(out), _expected(a, b, 8))
    assert min(margins) == 0.5


@pytest.mark.parametrize("digit_bits", [3, 8, 11])
def test_32_bit_boundary_pairs_in_several_radices(digit_bits):
    values = torch.tensor(boundary_values(32))
    a, b = values.repeat_interleave(len(values)), values.repeat(len(values))
    with torch.inference_mode():
        out = RadixDivider(32, digit_bits)(torch.stack([a, b], 1).double())
    assert torch.equal(_got(out), _expected(a, b, 32))


def test_widest_radix_at_32_bits():
    # k = 20: n + k = 52, the edge of float64's exact range (2^20 neurons a step,
    # so only a few pairs).
    top = 1 << 31
    pairs = [(-top, -1), (-top, 1), (-top, 0), (top - 1, -1), (top - 1, 3), (-top, -top), (-7, 2), (123456789, -1000)]
    a, b = torch.tensor(pairs).unbind(1)
    with torch.inference_mode():
        out = RadixDivider(32, 20)(torch.stack([a, b], 1).double())
    assert torch.equal(_got(out), _expected(a, b, 32))


def test_small_batch_form_equals_the_module():
    divider = RadixDivider(32)
    runner = SmallBatchDivider(divider)
    gen = torch.Generator().manual_seed(11)
    for batch in (1, 1, 5, 64):  # batch 1 twice: the buffers are reused
        a = torch.randint(-(1 << 31), 1 << 31, (batch,), generator=gen)
        b = torch.randint(-(1 << 31), 1 << 31, (batch,), generator=gen) >> torch.randint(0, 31, (batch,), generator=gen)
        b[0] = 0 if batch == 5 else b[0]
        x = torch.stack([a, b], 1).double()
        with torch.inference_mode():
            full = divider(x)
            assert torch.equal(runner(x, "DIV"), full[:, :3])
            assert torch.equal(runner(x, "MOD"), full[:, 3:])


def test_weights_and_units_keep_products_below_2_to_the_53():
    # The exactness argument (divider.py): big weights only meet bounded units.
    # Check the largest |weight| x |unit| product of every step at 32 bits
    # against the units' bounds: |a|, |b| < 2^32, the others <= c_j.
    divider = RadixDivider(32)
    bound = torch.full((divider.units,), 1.0, dtype=torch.float64)
    bound[:4] = 2.0 ** 31  # a+, a-, b+, b-
    bound[8:] = torch.tensor([2.0 ** (32 - 8 * j) for j in range(1, divider.steps)])
    products = divider.step_matrices().abs() * bound[None, :, None]
    assert products.max() < 2.0 ** 41  # n + k + 1 = 41


def test_bad_radix_is_rejected():
    with pytest.raises(ValueError):
        RadixDivider(32, 0)
    with pytest.raises(ValueError):
        RadixDivider(32, 21)  # 32 + 21 > 52: past float64's exact range
