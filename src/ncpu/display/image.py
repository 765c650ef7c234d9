"""Frames (0/1 pixel arrays) to image files with Pillow: light ink on dark."""

from __future__ import annotations

from pathlib import Path

import numpy as np

INK, PAPER = (200, 255, 200), (16, 24, 16)


class PillowMissing(ImportError):
    """Pillow is not installed (pip install 'ncpu[display]')."""


def _pillow():
    try:
        from PIL import Image
    except ImportError:
        raise PillowMissing("writing images needs Pillow: pip install 'ncpu[display]'") from None
    return Image


def to_image(frame: np.ndarray, scale: int = 2):
    """Pixels [H, W] (nonzero = ink) -> an RGB PIL image, each pixel scale x scale."""
    Image = _pillow()
    ink = np.asarray(frame) > 0
    rgb = np.where(ink[..., None], np.array(INK, np.uint8), np.array(PAPER, np.uint8))
    image = Image.fromarray(rgb.astype(np.uint8), "RGB")
    return image.resize((image.width * scale, image.height * scale), Image.NEAREST) if scale > 1 else image


def save_png(frame: np.ndarray, path: Path | str, scale: int = 2) -> Path:
    to_image(frame, scale).save(path, format="PNG")
    return Path(path)


def save_frames(frames: list[np.ndarray], path: Path | str, scale: int = 2, frame_ms: int = 100) -> list[Path]:
    """An animated GIF if `path` ends in .gif, else numbered PNGs: out.png ->
    out-0000.png, out-0001.png, ... Returns the files written."""
    path = Path(path)
    if path.suffix.lower() == ".gif":
        images = [to_image(f, scale) for f in frames]
        images[0].save(path, format="GIF", save_all=True, append_images=images[1:], duration=frame_ms, loop=0)
        return [path]
    width = max(4, len(str(len(frames) - 1)))
    return [save_png(f, path.with_name(f"{path.stem}-{i:0{width}d}{path.suffix or '.png'}"), scale)
            for i, f in enumerate(frames)]
