"""Where a NeuralALU's weights come from: the construction or training.

Trained weights ship in `weights/trained.npz`, one entry per parameter,
keyed `w{width}.{parameter name}`. The digit-pair product table is stored
as its logits' signs, packed one bit per entry (the hard circuit reads only
the sign), plus the mean trained magnitude so the soft variant has a scale.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import numpy as np
import torch

from ncpu.alu.alu import NeuralALU

WEIGHTS_DIR = Path(__file__).parent / "weights"
TRAINED_PATH = WEIGHTS_DIR / "trained.npz"
WIDTHS = (8, 16, 32)
SOURCES = ("trained", "analytic")
_PACKED = "multiplier.product_logits"


# Where `ncpu train alu` writes by default, and the variable that points the
# machine at weights other than the shipped ones.
WEIGHTS_ENV = "NCPU_ALU_WEIGHTS"


class WeightsError(Exception):
    """Weights that cannot be used; the message is one line naming the file."""


class WeightsUnavailable(WeightsError, FileNotFoundError):
    """No trained weights at the expected path."""


def default_path() -> Path:
    """$NCPU_ALU_WEIGHTS when set, else the weights the package ships."""
    return Path(os.environ[WEIGHTS_ENV]) if os.environ.get(WEIGHTS_ENV) else TRAINED_PATH


def user_path() -> Path:
    """Where freshly trained weights go unless told otherwise: the user's data
    directory, never inside the installed package."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "ncpu" / "trained.npz"


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


def load_weights(alu: NeuralALU, path: Path | str | None = None) -> NeuralALU:
    """Fill `alu` from a weights file; WeightsError (one line) for a missing,
    corrupted or mismatched file."""
    path = Path(path) if path is not None else default_path()
    if not path.exists():
        raise WeightsUnavailable(f"no trained weights at {path}; run `ncpu train alu`")
    if not zipfile.is_zipfile(path):
        raise WeightsError(f"{path}: not a weights file (not an .npz archive)")
    prefix = f"w{alu.width}."
    try:
        with np.load(path, allow_pickle=False) as data:
            state = {name: _entry(data, prefix + name, name, current, path)
                     for name, current in alu.state_dict().items()}
    except WeightsError:
        raise
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as error:
        raise WeightsError(f"{path}: not a readable weights file ({type(error).__name__}: "
                           f"{str(error).splitlines()[0] if str(error) else 'corrupted'})") from None
    alu.load_state_dict(state)
    return alu


def _entry(data, key: str, name: str, current: torch.Tensor, path: Path) -> torch.Tensor:
    """One parameter from the archive, checked against the shape the ALU has."""
    if name == _PACKED:
        if key + ".signs" not in data or key + ".scale" not in data:
            raise WeightsUnavailable(f"{path} has no weights for width {key.split('.')[0][1:]}")
        packed = data[key + ".signs"]
        if packed.dtype != np.uint8 or packed.size * 8 < current.numel():
            raise WeightsError(f"{path}: {key}.signs holds {packed.size * 8} bits, expected {current.numel()}")
        signs = np.unpackbits(packed)[:current.numel()].astype(np.float32)
        value = (2 * signs - 1) * float(data[key + ".scale"])
        return torch.from_numpy(value.reshape(tuple(current.shape)))
    if key not in data:
        raise WeightsUnavailable(f"{path} has no {key}")
    value = data[key]
    if tuple(value.shape) != tuple(current.shape):
        raise WeightsError(f"{path}: {key} has shape {tuple(value.shape)}, expected {tuple(current.shape)}")
    if value.dtype.kind != "f" or not np.isfinite(value).all():
        raise WeightsError(f"{path}: {key} is not finite floating point ({value.dtype})")
    return torch.from_numpy(value)


def build_alu(width: int = 32, source: str = "trained", device: torch.device | str | None = None,
              path: Path | str | None = None, dtype: torch.dtype = torch.float32) -> NeuralALU:
    """A NeuralALU with weights from `source` ('trained' or 'analytic'), on `device`."""
    if source not in SOURCES:
        raise ValueError(f"weights source must be one of {', '.join(SOURCES)}, not {source!r}")
    alu = NeuralALU(width, dtype)
    if source == "analytic":
        alu.analytic_()
    else:
        load_weights(alu, path)
    alu.requires_grad_(False)
    return alu.to(device=device) if device is not None else alu
