"""`ncpu train alu`: train every cell of the neural ALU from its complete
truth table and save the weights (by default over the shipped ones)."""

from __future__ import annotations

from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "train", help="train neural components from their truth tables",
        description="Train every cell of the neural ALU by gradient descent on its complete truth table "
                    "until it is exact on every row, then save the weights. Without --out this replaces "
                    "the weights the package ships (the same seed reproduces them).")
    parser.add_argument("component", choices=["alu"], help="what to train")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--out", type=Path, default=None,
                        help="directory for trained.npz (default: the package's shipped weights)")
    parser.set_defaults(func=run_train)


def run_train(args) -> int:
    import torch
    from tqdm import tqdm

    from ncpu.alu.train import TrainingFailed, train_alu
    from ncpu.alu.weights import TRAINED_PATH, WIDTHS, save_weights
    from ncpu.cli import CommandError

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
    path = save_weights(alus, (args.out / "trained.npz") if args.out else TRAINED_PATH)
    print(f"{'width':>5} {'cell':<22} {'rows':>8} {'steps':>6} {'margin':>9}")
    for r in results:
        print(f"{r.width:>5} {r.cell:<22} {r.rows:>8} {r.steps:>6} {r.margin:>9.4g}")
    print(f"every cell exact on its whole truth table; weights saved to {path} ({path.stat().st_size:,} bytes)")
    return 0
