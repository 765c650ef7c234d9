"""The display networks against the classical renderer (`screen.reference_frame`),
enumerated: every byte value through the glyph network, every cell position
through the compositor, every cursor position through the whole display."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from ncpu.display.font import GLYPH_H, GLYPH_W, glyph_table
from ncpu.display.networks import PIXELS, NeuralDisplay, to_bits
from ncpu.display.screen import CELLS, COLS, HEIGHT, ROWS, WIDTH, reference_frame


@pytest.fixture(scope="module")
def display() -> NeuralDisplay:
    return NeuralDisplay()


def test_glyph_network_is_exact_on_every_byte(display):
    bits = to_bits(torch.arange(256), 8)
    pixels = display.glyphs(bits)                                   # [256, 128]
    assert torch.equal(pixels, torch.from_numpy(glyph_table().reshape(256, PIXELS)).float())


def test_decoder_margins_are_half_a_unit(display):
    pre = display.glyphs.decode(to_bits(torch.arange(256), 8))     # [256, 95]
    match = pre > 0
    assert (match.sum(1) == torch.tensor([1 if 0x20 <= c < 0x7F else 0 for c in range(256)])).all()
    assert torch.allclose(pre[match], torch.tensor(0.5)) and (pre[~match] <= -0.5).all()


def place(glyph_vectors: np.ndarray) -> np.ndarray:
    """The oracle compositor: [CELLS, 128] -> [HEIGHT, WIDTH]."""
    grid = glyph_vectors.reshape(ROWS, COLS, GLYPH_H, GLYPH_W)
    return grid.transpose(0, 2, 1, 3).reshape(HEIGHT, WIDTH)


def test_compositor_places_a_glyph_exactly_at_every_position(display):
    rng = np.random.default_rng(0)
    no_cursor = torch.zeros(1, CELLS)
    for start in range(0, CELLS, 60):
        positions = range(start, start + 60)
        vectors = np.zeros((60, CELLS, PIXELS), np.float32)
        for k, p in enumerate(positions):
            vectors[k, p] = rng.integers(0, 2, PIXELS)
        frames = display.compositor(torch.from_numpy(vectors), no_cursor.expand(60, -1))
        for k in range(60):
            assert np.array_equal(frames[k].numpy(), place(vectors[k])), k + start


def test_whole_display_matches_the_oracle_at_every_cursor_position(display):
    rng = np.random.default_rng(1)
    cursors = list(range(CELLS)) + [-1, CELLS, 1 << 16, (1 << 31) - 1, -(1 << 31), CELLS + (1 << 16)]
    codes = rng.integers(-(1 << 31), 1 << 31, (len(cursors), CELLS))
    codes[::2] = rng.integers(0x20, 0x7F, (len(codes[::2]), CELLS))  # half the screens all printable
    for start in range(0, len(cursors), 64):
        chunk = slice(start, start + 64)
        frames = display(torch.from_numpy(codes[chunk]), torch.tensor(cursors[chunk]))
        for k, cursor in enumerate(cursors[chunk]):
            assert np.array_equal(frames[k].numpy(), reference_frame(codes[start + k], cursor)), cursor


def test_size_report(display):
    report = display.layer_report()
    assert report == {"glyph": 8 * 95 + 95 + 95 * 128, "cursor": 32 * CELLS + CELLS,
                      "compositor": 128 * 128 + 128 + 3, "total": 45370}
    assert (display.layers, display.threshold_layers) == (4, 2)


def test_compositor_matmul_form_equals_torch_transposed_convolution(display):
    comp = display.compositor
    glyphs = torch.randn(3, CELLS, PIXELS)
    cursor = torch.randn(3, CELLS, 1)
    for conv, cells in ((comp.place, glyphs), (comp.underline, cursor)):
        assert torch.allclose(comp.transposed_conv(conv, cells), comp.reference_conv(conv, cells), atol=1e-5)
