"""Coprocessor figures for the README: exact match per op and operand length
(base model, + neural ALU coprocessor, + NALU head in the same slot), prose
perplexity and gate routing, for each shipped model size.

    PYTHONPATH=src python benchmarks/coprocessor_bench.py [--sizes tiny,small] [--n 50]

The shipped models come from `ncpu coprocessor train --size SIZE` (defaults).
Training used operands of 1-3 digits; lengths 4-9 are extrapolation.
"""

from __future__ import annotations

import argparse
import time

import torch

from ncpu.coprocessor.evaluate import mean, report
from ncpu.coprocessor.lm import SIZES
from ncpu.coprocessor.pipeline import WEIGHTS_DIR, load_trained

TRAIN_LEN = 3


def summary_rows(name: str, result: dict) -> list[str]:
    """One markdown row per (op, model): in-distribution mean and each longer length."""
    rows = []
    for op in result["exact"]["base"]:
        for model in result["exact"]:
            cells = result["exact"][model][op]
            seen = mean(v for n, v in cells.items() if n <= TRAIN_LEN)
            longer = [f"{100 * cells[n]:.0f}" for n in sorted(cells) if n > TRAIN_LEN]
            rows.append(f"| {name} | {op} | {model} | {100 * seen:.1f} | " + " | ".join(longer) + " |")
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="tiny,small")
    parser.add_argument("--n", type=int, default=50, help="held-out problems per op and length")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    lengths = range(1, 10)
    for size in args.sizes.split(","):
        start = time.perf_counter()
        model, tokenizer, coprocessors = load_trained(WEIGHTS_DIR / size)
        params = sum(p.numel() for p in model.parameters())
        result = report(model, tokenizer, coprocessors, lengths, args.n)
        hidden, layers, _ = SIZES[size]
        print(f"\n## {size}: Qwen2 architecture, {layers} layers x {hidden} hidden, {params:,} parameters; "
              f"{args.n} held-out problems per op and length ({time.perf_counter() - start:.0f} s)\n")
        print("| size | op | model | lengths 1-3 (%) | " + " | ".join(str(n) for n in lengths if n > TRAIN_LEN) + " |")
        print("|---" * (4 + len([n for n in lengths if n > TRAIN_LEN])) + "|")
        print("\n".join(summary_rows(size, result)))
        print()
        for name, table in result["exact"].items():
            seen = mean(v for cells in table.values() for n, v in cells.items() if n <= TRAIN_LEN)
            longer = mean(v for cells in table.values() for n, v in cells.items() if n > TRAIN_LEN)
            worst = min(v for op in ("ADD", "SUB", "MUL", "DIV", "MOD") for v in table[op].values())
            print(f"- {name}: mean exact match {100 * seen:.1f}% at lengths 1-3, {100 * longer:.1f}% at 4-9; "
                  f"worst add/sub/mul/div/mod cell {100 * worst:.0f}%")
        base_ppl = result["perplexity"]["base"]
        for name, ppl in result["perplexity"].items():
            print(f"- prose perplexity {name}: {ppl:.4f} ({100 * (ppl / base_ppl - 1):+.2f}% vs base)")
        for name, shares in result["routing"].items():
            print(f"- routed to the ALU ({name}): " + ", ".join(f"{k} {100 * v:.1f}%" for k, v in shares.items()))
    return 0


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
