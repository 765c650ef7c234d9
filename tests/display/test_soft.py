"""The soft display: differentiable in its input bits."""

from __future__ import annotations

import torch

from ncpu.display.networks import GlyphNet, NeuralDisplay, to_bits
from ncpu.display.screen import CELLS


def screen(text: str) -> torch.Tensor:
    codes = torch.full((1, CELLS), 32)
    codes[0, :len(text)] = torch.tensor([ord(c) for c in text])
    return codes


def test_straight_through_pixels_are_exact_and_have_gradients():
    display = NeuralDisplay()
    codes, cursor = screen("Hi"), torch.tensor([5])
    bits = to_bits(codes, 8).requires_grad_(True)
    frame = display.forward_bits(bits, to_bits(cursor, 32), temperature=0.5)
    assert torch.equal(frame.detach(), display(codes, cursor))
    (frame * torch.randn_like(frame)).sum().backward()
    assert torch.isfinite(bits.grad).all() and bits.grad[0, :2].abs().sum() > 0


def test_a_gradient_step_reduces_the_relaxed_pixel_loss():
    display = NeuralDisplay()
    target = display(screen("C"), torch.tensor([-1]))
    bits = to_bits(screen("A"), 8).clamp(0.1, 0.9).requires_grad_(True)
    cursor_bits = to_bits(torch.tensor([-1]) & 0xFFFFFFFF, 32)

    def loss(b):
        return ((display.forward_bits(b, cursor_bits, 0.25, relaxed=True) - target) ** 2).sum()

    before = loss(bits)
    before.backward()
    with torch.no_grad():
        assert loss(bits - 1e-3 * bits.grad) < before


def descend(source: str, target: str, steps: int = 300) -> str:
    """Gradient descent on one cell's relaxed bits until its rounded code shows `target`."""
    glyphs = GlyphNet().requires_grad_(False)
    want = glyphs(to_bits(torch.tensor([ord(target)]), 8))
    logits = (to_bits(torch.tensor([ord(source)]), 8) * 4 - 2).requires_grad_(True)
    optimiser = torch.optim.Adam([logits], lr=0.2)
    for _ in range(steps):
        loss = ((glyphs(torch.sigmoid(logits), 0.25, relaxed=True) - want) ** 2).sum()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        code = int(((logits.detach()[0] > 0).long() << torch.arange(8)).sum())
        if code == ord(target):
            break
    return chr(code)


def test_gradient_descent_finds_a_code_that_draws_the_target_glyph():
    for source, target in [("A", "C"), ("x", "z"), ("1", "7")]:
        found = descend(source, target)
        assert found == target
        # checked on the exact (hard) display
        assert torch.equal(NeuralDisplay()(screen(found), torch.tensor([-1])),
                           NeuralDisplay()(screen(target), torch.tensor([-1])))
