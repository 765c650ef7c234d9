"""Freeze the suite: `python -m ncpu.synth.benchmarks.generate` rewrites
suite.json from problems.py (deterministic: the same file every time)."""

from __future__ import annotations

import json
from pathlib import Path

from ncpu.synth.benchmarks.problems import DEFS
from ncpu.synth.benchmarks.suite import make_spec_json


def main() -> None:
    problems = [make_spec_json(d, seed=0) for d in DEFS]
    path = Path(__file__).with_name("suite.json")
    path.write_text(json.dumps({"version": 1, "problems": problems}, indent=1) + "\n")


if __name__ == "__main__":
    main()
