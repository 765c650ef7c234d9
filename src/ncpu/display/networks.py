"""The neural display: character codes to pixels through two networks.

    GlyphNet     code bits [.., 8] -> glyph pixels [.., 128]
                 layer 1: 95 threshold neurons, one per printable code, each
                   firing only on its own 8-bit pattern (weights +1 on the
                   code's 1 bits, -1 on its 0 bits, bias 0.5 - popcount: the
                   pre-activation is +0.5 on a match and <= -0.5 otherwise)
                 layer 2: linear, 95 -> 128, whose columns are the font's
                   bitmaps: exactly one neuron (or none: a blank) fires, so
                   the output is that glyph's pixels, exactly 0 or 1.
    CursorNet    cursor word bits [32] -> a one-hot map over the 480 cells
                 (480 threshold neurons of the same kind; out-of-range
                 values fire none)
    Compositor   a transposed convolution, kernel = stride = one cell
                   (16 x 8), 128 input channels -> 1: channel k of a cell's
                   vector lands on pixel k of its block, every output pixel
                   receives exactly one input; a second transposed
                   convolution draws the cursor's underline; one threshold
                   layer ORs the two.

Layers, in order: the decoders (threshold; glyph and cursor side by side),
the bitmap read-out (linear), the placement (linear, a transposed
convolution), the OR (threshold): 4 layers, 2 of them threshold layers. Everything is exact on 0/1 inputs; the
tests enumerate every byte value through GlyphNet, every cell position
through the Compositor and every cursor position through the whole display.

Soft variants, differentiable in the input bits (which may then be any
reals): with a `temperature`, every threshold unit keeps its hard value in
the forward pass and passes the gradient of sigmoid(pre / temperature)
backwards (`ncpu.alu.threshold.heaviside`, the straight-through estimator
the neural ALU uses: pixels stay exact); with `relaxed=True` as well, the
units output the sigmoid itself (pixels are then a smooth function of the
bits, which is what gradient descent on an input needs: a straight-through
loss is flat between bit flips).
"""

from __future__ import annotations

import numpy as np
import torch
from torch import Tensor, nn

from ncpu.alu.threshold import heaviside as straight_through
from ncpu.display.font import GLYPH_H, GLYPH_W, PRINTABLE, load_font
from ncpu.display.screen import CELLS, COLS, ROWS, UNDERLINE_ROWS

CODE_BITS, CURSOR_BITS = 8, 32
PIXELS = GLYPH_H * GLYPH_W


def threshold(pre: Tensor, temperature: float | None, relaxed: bool) -> Tensor:
    """A threshold unit: hard (no temperature), straight-through (hard values,
    sigmoid gradients) or relaxed (sigmoid values too)."""
    if relaxed:
        return torch.sigmoid(pre / (temperature or 1.0))
    return straight_through(pre, temperature)


def pattern_decoder(patterns: list[int], bits: int) -> nn.Linear:
    """Threshold neurons firing on exactly one bit pattern each (LSB first inputs)."""
    layer = nn.Linear(bits, len(patterns))
    with torch.no_grad():
        w = torch.tensor([[1.0 if (p >> i) & 1 else -1.0 for i in range(bits)] for p in patterns])
        layer.weight.copy_(w)
        layer.bias.copy_(0.5 - (w > 0).sum(1).float())
    return layer


def to_bits(values: Tensor, bits: int) -> Tensor:
    """int64 [...] -> float bits [..., bits], LSB first (the interface, not a circuit)."""
    return ((values.unsqueeze(-1) >> torch.arange(bits, device=values.device)) & 1).float()


class GlyphNet(nn.Module):
    def __init__(self, font: np.ndarray | None = None):
        super().__init__()
        font = load_font() if font is None else font                    # [95, 16, 8]
        self.decode = pattern_decoder(list(PRINTABLE), CODE_BITS)       # 8 -> 95
        self.draw = nn.Linear(len(PRINTABLE), PIXELS, bias=False)       # 95 -> 128
        with torch.no_grad():
            self.draw.weight.copy_(torch.from_numpy(font.reshape(len(PRINTABLE), PIXELS).T.astype(np.float32)))

    def forward(self, bits: Tensor, temperature: float | None = None, relaxed: bool = False) -> Tensor:
        """bits [..., 8] -> pixels [..., 128] (row-major within the 16 x 8 glyph)."""
        return self.draw(threshold(self.decode(bits), temperature, relaxed))


class Compositor(nn.Module):
    def __init__(self, rows: int = ROWS, cols: int = COLS):
        super().__init__()
        self.rows, self.cols = rows, cols
        cell = (GLYPH_H, GLYPH_W)
        self.place = nn.ConvTranspose2d(PIXELS, 1, cell, stride=cell, bias=False)
        self.underline = nn.ConvTranspose2d(1, 1, cell, stride=cell, bias=False)
        self.either = nn.Linear(2, 1)  # the OR neuron: ink if glyph or cursor
        with torch.no_grad():
            self.place.weight.copy_(torch.eye(PIXELS).view(PIXELS, 1, GLYPH_H, GLYPH_W))
            self.underline.weight.zero_()
            self.underline.weight[0, 0, list(UNDERLINE_ROWS)] = 1.0
            self.either.weight.fill_(1.0)
            self.either.bias.fill_(-0.5)

    def forward(self, glyphs: Tensor, cursor: Tensor, temperature: float | None = None,
                relaxed: bool = False) -> Tensor:
        """glyphs [B, cells, 128], cursor one-hot [B, cells] -> pixels [B, H, W]."""
        B = glyphs.shape[0]
        ink = self.transposed_conv(self.place, glyphs)                 # [B, H, W]
        mark = self.transposed_conv(self.underline, cursor[..., None])  # [B, H, W]
        w, b = self.either.weight[0], self.either.bias[0]
        return threshold(ink * w[0] + mark * w[1] + b, temperature, relaxed)

    def transposed_conv(self, conv: nn.ConvTranspose2d, cells: Tensor) -> Tensor:
        """`conv` (kernel = stride = one cell, no bias) on per-cell channel
        vectors [B, cells, C] -> [B, H, W]. With kernel = stride the cells'
        outputs do not overlap, so the convolution is one matmul per cell
        (channels @ kernel) and a reshape; torch's own conv_transpose2d gives
        the same numbers (a test checks) but is ~10x slower on CPU here."""
        B, _, C = cells.shape
        kernel = conv.weight.view(C, -1)                                 # [C, 16*8]
        blocks = (cells.reshape(-1, C) @ kernel).view(B, self.rows, self.cols, GLYPH_H, GLYPH_W)
        return blocks.permute(0, 1, 3, 2, 4).reshape(B, self.rows * GLYPH_H, self.cols * GLYPH_W)

    def reference_conv(self, conv: nn.ConvTranspose2d, cells: Tensor) -> Tensor:
        """The same with torch's conv_transpose2d (for the equivalence test)."""
        B, _, C = cells.shape
        grid = cells.transpose(1, 2).reshape(B, C, self.rows, self.cols)    # [B, C, rows, cols]
        return conv(grid)[:, 0]


class NeuralDisplay(nn.Module):
    """Screen words -> pixels: GlyphNet per cell, CursorNet, Compositor."""

    def __init__(self, rows: int = ROWS, cols: int = COLS, font: np.ndarray | None = None):
        super().__init__()
        self.glyphs = GlyphNet(font)
        self.cursor = pattern_decoder(list(range(rows * cols)), CURSOR_BITS)
        self.compositor = Compositor(rows, cols)
        self.requires_grad_(False)

    def forward_bits(self, code_bits: Tensor, cursor_bits: Tensor, temperature: float | None = None,
                     relaxed: bool = False) -> Tensor:
        """code bits [B, cells, 8], cursor bits [B, 32] (reals allowed with a
        temperature) -> pixels [B, H, W]."""
        cursor = threshold(self.cursor(cursor_bits), temperature, relaxed)
        glyphs = self.glyphs(code_bits, temperature, relaxed)
        return self.compositor(glyphs, cursor, temperature, relaxed)

    def forward(self, codes: Tensor, cursor: Tensor) -> Tensor:
        """codes int64 [B, cells] (low 8 bits read), cursor words int64 [B] -> pixels 0/1 [B, H, W]."""
        cursor_bits = to_bits(cursor & 0xFFFFFFFF, CURSOR_BITS)
        return self.forward_bits(to_bits(codes & 0xFF, CODE_BITS), cursor_bits)

    def layer_report(self) -> dict[str, int]:
        """Parameters per part (every weight and bias, constructed, none trained)."""
        count = lambda m: sum(p.numel() for p in m.parameters())  # noqa: E731
        return {"glyph": count(self.glyphs), "cursor": count(self.cursor),
                "compositor": count(self.compositor), "total": count(self)}

    layers = 4            # decoders, bitmap read-out, placement, OR
    threshold_layers = 2  # the decoders and the OR


__all__ = ["CELLS", "Compositor", "GlyphNet", "NeuralDisplay", "pattern_decoder", "to_bits"]
