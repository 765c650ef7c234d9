"""Where a NeuralALU's weights come from: the construction or training.

Trained weights ship in `weights/trained.npz`, one entry per parameter,
keyed `w{width}.{parameter name}`. The digit-pair product table is stored
as its logits' signs, packed one bit per entry (the hard circuit reads only
the sign), plus the mean trained magnitude so the soft variant has a scale.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from ncpu.alu.alu import NeuralALU

WEIGHTS_DIR = Path(__file__).parent / "weights"
TRAINED_PATH = WEIGHTS_DIR / "trained.npz"
WIDTHS = (8, 16, 32)
SOURCES = ("trained", "analytic")
_PACKED = "multiplier.product_logits"


class WeightsUnavailable(FileNotFoundError):
    """No trained weights at the expected path."""


def save_weights(alus: dict[int, NeuralALU], path: Path | str = TRAINED_PATH) -> Path:
    arrays: dict[str, np.ndarray] = {}
    for width, alu in alus.items():
        for name, value in alu.state_dict().items():
            value = value.detach().cpu().float()
            key = f"w{width}.{name}"
            if name == _PACKED:
                arrays[key + ".signs"] = np.packbits((value > 0).numpy().reshape(-1))
                arrays[key + ".scale"] = np.float32(value.abs().mean().item())
            else:
                arrays[key] = value.numpy()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)
    return path


def load_weights(alu: NeuralALU, path: Path | str = TRAINED_PATH) -> NeuralALU:
    path = Path(path)
    if not path.exists():
        raise WeightsUnavailable(f"no trained weights at {path}; run `ncpu train alu`")
    prefix = f"w{alu.width}."
    with np.load(path) as data:
        state = {}
        for name, current in alu.state_dict().items():
            key = prefix + name
            if name == _PACKED:
                if key + ".signs" not in data:
                    raise WeightsUnavailable(f"{path} has no weights for width {alu.width}")
                signs = np.unpackbits(data[key + ".signs"])[:current.numel()].astype(np.float32)
                value = (2 * signs - 1) * float(data[key + ".scale"])
                state[name] = torch.from_numpy(value.reshape(tuple(current.shape)))
            else:
                if key not in data:
                    raise WeightsUnavailable(f"{path} has no {key}")
                state[name] = torch.from_numpy(data[key])
    alu.load_state_dict(state)
    return alu


def build_alu(width: int = 32, source: str = "trained", device: torch.device | str | None = None,
              path: Path | str | None = None, dtype: torch.dtype = torch.float32) -> NeuralALU:
    """A NeuralALU with weights from `source` ('trained' or 'analytic'), on `device`."""
    if source not in SOURCES:
        raise ValueError(f"weights source must be one of {', '.join(SOURCES)}, not {source!r}")
    alu = NeuralALU(width, dtype)
    if source == "analytic":
        alu.analytic_()
    else:
        load_weights(alu, path or TRAINED_PATH)
    alu.requires_grad_(False)
    return alu.to(device=device) if device is not None else alu
