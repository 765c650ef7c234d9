"""`ncpu train alu`: train every cell of the neural ALU from its complete
truth table and save the weights (to the user's data directory by default;
the weights inside the installed package are never overwritten)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "train", help="train neural components from their truth tables",
        description="Train every cell of the neural ALU by gradient descent on its complete truth table "
                    "until it is exact on every row, then save the weights as trained.npz. The shipped "
                    "weights are not touched; point the machine at the new ones with "
                    "NCPU_ALU_WEIGHTS=PATH (the same seed reproduces the shipped ones).")
    parser.add_argument("component", choices=["alu"], help="what to train")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--out", type=Path, default=None,
                        help="directory for trained.npz (default: $XDG_DATA_HOME/ncpu, "
                             "else ~/.local/share/ncpu)")
    parser.set_defaults(func=run_train)


def _check_writable(path: Path) -> None:
    """Fail before hours of training, not after: create the directory and a
    scratch file in it."""
    from ncpu.cli import CommandError

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, scratch = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        os.close(fd)
        os.unlink(scratch)
    except OSError as error:
        raise CommandError(f"cannot write {path}: {error.strerror or error}") from None
    if path.is_dir():
        raise CommandError(f"cannot write {path}: it is a directory")


def run_train(args) -> int:
    from ncpu.alu.weights import WEIGHTS_ENV, user_path
    from ncpu.cli import CommandError

    path = (args.out / "trained.npz") if args.out else user_path()
    _check_writable(path)

    import torch
    from tqdm import tqdm

    from ncpu.alu.train import TrainingFailed, train_alu
    from ncpu.alu.weights import WIDTHS, save_weights

    torch.manual_seed(args.seed)
    alus, results = {}, []
    with tqdm(desc="training", unit="step") as bar:
        def progress(name: str, steps: int) -> None:
            bar.set_postfix_str(name)
            bar.update(steps)
        for width in WIDTHS:
            try:
                alu, cells = train_alu(width, args.seed, progress)
            except TrainingFailed as error:
                raise CommandError(str(error)) from None
            alus[width] = alu
            results.extend(cells)
    try:
        path = save_weights(alus, path)
    except OSError as error:
        raise CommandError(f"cannot write {path}: {error.strerror or error}") from None
    print(f"{'width':>5} {'cell':<22} {'rows':>8} {'steps':>6} {'margin':>9}")
    for r in results:
        print(f"{r.width:>5} {r.cell:<22} {r.rows:>8} {r.steps:>6} {r.margin:>9.4g}")
    print(f"every cell exact on its whole truth table; weights saved to {path} ({path.stat().st_size:,} bytes)")
    print(f"to use them: export {WEIGHTS_ENV}={path}")
    return 0
