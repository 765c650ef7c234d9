"""Accuracy of guest/apps/digits.c, run on our machine, on the held-out 30 % of
scikit-learn's digits (the training script never sees them).

    python benchmarks/digits_accuracy.py
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tests" / "guest"))

import guest_harness as gh  # noqa: E402


def main() -> None:
    spec = importlib.util.spec_from_file_location("digits_train", REPO / "guest" / "apps" / "digits_train.py")
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)
    _, test_x, _, test_y = train.split()
    tree = gh.build_tree()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "root"
        shutil.copytree(tree, root, ignore=shutil.ignore_patterns(".done"))
        stdin = "".join(" ".join(str(v) for v in row) + "\n" for row in test_x).encode()
        for name in ("digits", "digits.ncc"):
            out = gh.harness.run_ncpu(root / "bin" / name, [name], root, stdin=stdin)
            pred = [int(v) for v in out.stdout.split()]
            right = sum(int(p == y) for p, y in zip(pred, test_y))
            print(f"{name:11} {right}/{len(test_y)} correct = {right / len(test_y):.4f}  "
                  f"({out.instructions:,} instructions on the machine)")


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
