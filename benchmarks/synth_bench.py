"""Synthesis benchmark: `python benchmarks/synth_bench.py --timeout 5` (same
as `ncpu bench synth`). Prints solved counts per problem and solver family,
median/p90 times, generalisation, and cvc5 side by side; writes a JSON report."""

import argparse

from ncpu.commands.bench_synth import add_synth_bench_arguments, run_synth_bench
from ncpu.pipes import run_script


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    add_synth_bench_arguments(parser)
    return run_synth_bench(parser.parse_args())


if __name__ == "__main__":
    run_script(main)
