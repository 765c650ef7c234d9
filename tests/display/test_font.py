"""The committed font: well formed, one distinct glyph per printable code."""

from __future__ import annotations

import numpy as np
import pytest

from ncpu.display.font import FontError, PRINTABLE, format_font, glyph_table, load_font, parse_font


def test_every_printable_code_has_a_distinct_glyph():
    font = load_font()
    assert font.shape == (95, 16, 8) and set(np.unique(font)) <= {0, 1}
    assert font[0].sum() == 0  # space is blank
    inked = font[1:].reshape(94, -1)
    assert (inked.sum(1) > 0).all()
    assert len({row.tobytes() for row in inked}) == 94


def test_non_printable_bytes_are_blank():
    table = glyph_table()
    outside = [c for c in range(256) if c not in PRINTABLE]
    assert table[outside].sum() == 0
    assert (table[list(PRINTABLE)] == load_font()).all()


def test_text_form_round_trips_and_rejects_damage():
    text = format_font(load_font())
    assert (parse_font(text) == load_font()).all()
    with pytest.raises(FontError, match="95"):
        parse_font("\n".join(text.splitlines()[:-17]))
    with pytest.raises(FontError, match="rows of 8"):
        parse_font(text.replace("........", ".......", 1))
