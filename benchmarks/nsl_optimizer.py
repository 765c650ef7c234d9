"""The nsl peephole optimizer on held-out programs: instructions and executed
steps saved by the classical greedy chooser, the oracle and the shipped
network, the proofs each spent, and the network's overrides.

    python benchmarks/nsl_optimizer.py

Held-out programs only (`ncpu.os.nets.optimizer.split`): the network never
saw their windows. Steps are counted on the compute engine; every optimized
program is checked to print its expected output with its exit status.
CPU time (time.process_time) of each chooser over all held-out programs.
"""

from __future__ import annotations

import time

from ncpu.os import compiler_opt


def main() -> None:
    started = time.process_time()
    figures = compiler_opt.evaluate(compiler_opt.load())
    seconds = time.process_time() - started
    choosers = ("classical", "oracle", "neural")
    print(f"held-out programs: {', '.join(figures['held_out'])}")
    print()
    print("| program | instructions | classical | oracle | neural | steps | classical | oracle | neural |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for p in figures["programs"]:
        print(f"| {p['name']} | {p['instructions']} | " + " | ".join(str(p[c]["instructions"]) for c in choosers)
              + f" | {p['steps']:,} | " + " | ".join(f"{p[c]['steps']:,}" for c in choosers) + " |")
    t = figures["totals"]
    print()
    print("| chooser | instructions saved | steps saved | rewrites | candidates checked | solver calls "
          "| refused (overrides) | outputs right |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for c in choosers:
        words = t["instructions"] - t[f"{c}_instructions"]
        steps = t["steps"] - t[f"{c}_steps"]
        print(f"| {c} | {words} of {t['instructions']} ({words / t['instructions']:.1%}) "
              f"| {steps:,} of {t['steps']:,} ({steps / t['steps']:.1%}) | {t[f'{c}_rewrites']} "
              f"| {t[f'{c}_guard_calls']:,} | {t[f'{c}_smt_calls']:,} | {t[f'{c}_overrides']:,} "
              f"| {t[f'{c}_correct']} |")
    print()
    print(f"CPU {seconds:.1f} s for the three choosers on {len(figures['programs'])} programs")


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
