"""Build the display font: matplotlib's bundled DejaVu Sans Mono, rasterised
by Pillow into 8 x 16 cells and thresholded to one bit a pixel.

    python -m ncpu.display.font_build [OUT.txt]

writes `font8x16.txt` beside this file (the committed copy is what the
display reads; matplotlib is needed only to rebuild it). DejaVu fonts are
under the Bitstream Vera license (free to use and redistribute, including
derived bitmaps). The point size and offsets were chosen by eye so that
capitals and descenders fit the cell: ascent 12 px, descent 3 px.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from ncpu.display.font import FONT_PATH, GLYPH_H, GLYPH_W, PRINTABLE, format_font

POINT_SIZE = 14        # pixels per em
BASELINE = 12          # pixel row of the baseline within the 16-row cell
THRESHOLD = 90         # 8-bit coverage above which a pixel is on


def rasterise() -> np.ndarray:
    """uint8 [95, 16, 8]: the printable ASCII glyphs, 1 = ink."""
    from matplotlib import font_manager
    from PIL import Image, ImageDraw, ImageFont

    path = font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans Mono"), fallback_to_default=False)
    font = ImageFont.truetype(path, POINT_SIZE)
    glyphs = np.zeros((len(PRINTABLE), GLYPH_H, GLYPH_W), np.uint8)
    for i, code in enumerate(PRINTABLE):
        canvas = Image.new("L", (GLYPH_W * 2, GLYPH_H * 2), 0)
        draw = ImageDraw.Draw(canvas)
        left = (GLYPH_W - font.getlength(chr(code))) / 2
        draw.text((GLYPH_W // 2 + left, GLYPH_H // 2 + BASELINE), chr(code), font=font, fill=255, anchor="ls")
        cell = np.asarray(canvas)[GLYPH_H // 2: GLYPH_H // 2 + GLYPH_H, GLYPH_W // 2: GLYPH_W // 2 + GLYPH_W]
        glyphs[i] = cell > THRESHOLD
    return glyphs


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else FONT_PATH
    out.write_text(format_font(rasterise()), encoding="ascii")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
