"""The world model's held-out figures, as the README quotes them.

    python benchmarks/world_model.py [--checkpoint world.pt] [--train]

With --train (or when the checkpoint is missing) it first trains the default
model (`ncpu world train`'s defaults: CPU, one thread) and reports how long
that took; then it evaluates on held-out programs (`ncpu world eval`).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch

from ncpu.world.evaluate import calibrated_thresholds, evaluate
from ncpu.world.model import WorldConfig
from ncpu.world.report import format_report
from ncpu.world.train import TrainConfig, load_model, train


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkpoint", type=Path, default=Path("world.pt"))
    parser.add_argument("--train", action="store_true", help="train the default model first")
    parser.add_argument("--programs", type=int, default=300, help="held-out random programs")
    args = parser.parse_args()
    torch.set_num_threads(1)
    if args.train or not args.checkpoint.exists():
        tc = TrainConfig()
        started = time.perf_counter()
        train(tc, WorldConfig(), args.checkpoint)
        print(f"trained the default model ({tc.steps} steps, batch {tc.batch}) in "
              f"{time.perf_counter() - started:.0f} s on one CPU thread")
    model, checkpoint = load_model(args.checkpoint)
    parameters = sum(p.numel() for name, p in model.named_parameters() if not name.startswith("target."))
    print(f"checkpoint {args.checkpoint}: {checkpoint['step']} steps, {parameters:,} trained parameters")
    started = time.perf_counter()
    result = evaluate(model, calibrated_thresholds(model, checkpoint), args.programs)
    print(format_report(result))
    print(f"(evaluation took {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
