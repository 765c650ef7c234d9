"""`ncpu run --display`: the images show the machine's screen, pixel for pixel."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from ncpu.cli import main
from ncpu.display.image import INK
from ncpu.display.screen import reference_frame, screen_text, screen_words
from ncpu.machine.engines import get_engine
from ncpu.machine.program_file import load_program_file

PROGRAM = Path(__file__).resolve().parents[2] / "programs" / "display" / "screen_hello.asm"


def pixels(path: Path, scale: int = 2) -> np.ndarray:
    rgb = np.asarray(Image.open(path).convert("RGB"))[::scale, ::scale]
    return (rgb == np.array(INK, np.uint8)).all(-1).astype(np.uint8)


def final_memory(max_steps: int | None = None) -> list[int]:
    loaded = load_program_file(PROGRAM)
    return get_engine("reference").run(loaded.program.words, loaded.fresh_state(), max_steps or loaded.max_steps).memory


def test_final_screen_png(tmp_path, capsys):
    out = tmp_path / "screen.png"
    assert main(["run", str(PROGRAM), "--display", str(out)]) == 0
    memory = final_memory()
    assert screen_text(memory).splitlines()[1:3] == ["  Hello, nCPU!", "  99"]
    assert np.array_equal(pixels(out), reference_frame(*screen_words(memory)))


@pytest.mark.parametrize("mode", ["compute", "neural"])
def test_animated_gif_has_a_frame_every_n_steps(tmp_path, mode, capsys):
    out = tmp_path / "screen.gif"
    assert main(["run", str(PROGRAM), "--mode", mode, "--display", str(out), "--display-every", "100"]) == 0
    gif = Image.open(out)
    assert gif.n_frames == 1 + 11  # the start, then after 100, 200, ..., 1,000 and 1,006 steps
    gif.seek(3)
    assert np.array_equal(pixels_of(gif), reference_frame(*screen_words(final_memory(300))))


def pixels_of(image, scale: int = 2) -> np.ndarray:
    rgb = np.asarray(image.convert("RGB"))[::scale, ::scale]
    return (rgb == np.array(INK, np.uint8)).all(-1).astype(np.uint8)


def test_numbered_pngs_and_errors(tmp_path, capsys):
    out = tmp_path / "f.png"
    assert main(["run", str(PROGRAM), "--display", str(out), "--display-every", "500"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f-0000.png", "f-0001.png", "f-0002.png", "f-0003.png"]
    assert main(["run", str(PROGRAM), "--display-every", "5"]) == 2
    assert main(["run", str(PROGRAM), "--mem-size", "512", "--display", str(out)]) == 2
    assert "screen needs memory" in capsys.readouterr().err
