"""The fuzzers, run at a chosen size, with what they ran and found.

    python benchmarks/fuzz_report.py [--seeds 3] [--calls 3000] [--cli-examples 10] [--mutations 2000]

1. ARM64 system calls (tests/arm64/linux/c/syscall_fuzz.c): `compare` runs
   under qemu-aarch64 and our machine, every return value compared (or
   Linux's answer where qemu's differs: rules in syscall_fuzz_rules.py);
   `all` runs any syscall number on our machine only, in forked batches.
2. The command line (tests/cli_fuzz.py): hypothesis command lines for every
   subcommand in ncpu.cli.COMMANDS, each forked; a traceback is a failure.
3. Synthesis cache entries: random byte mutations of a valid entry, looked
   up as a planted file; each must be a verified hit or a miss.
4. ELF loader: random byte mutations of a static AArch64 binary, loaded
   into a fresh memory; each must load or give an ElfError.

Prints one line per fuzzer with its counts; exit status 1 if any found a failure.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests"), str(ROOT / "tests" / "arm64" / "linux")]


def syscalls(seeds: int, calls: int) -> bool:
    import arm64linux_harness as harness
    from syscall_fuzz_rules import compare
    from test_arm64linux_syscall_fuzz import EXCLUDED, _run_both

    binary = harness.compile_c("syscall_fuzz")
    rules, compared, mismatches = Counter(), 0, 0
    for seed in range(1, seeds + 1):
        with tempfile.TemporaryDirectory() as tmp:
            ref, ours = _run_both(binary, ["prog", "compare", str(seed), str(calls)], Path(tmp))
        bad, used = compare(ref.stdout.decode().splitlines(), ours.stdout.decode().splitlines())
        mismatches += len(bad) + (ours.status != 0)
        for line in bad[:3]:
            print(f"    mismatch (seed {seed}): {line}")
        rules.update(used)
        compared += calls
    excluded = sum(n for rule, n in rules.items() if rule.startswith("excluded"))
    linux = sum(rules.values()) - excluded
    print(f"syscalls vs qemu-aarch64: {compared} calls in {seeds} runs; {compared - sum(rules.values())} equal to "
          f"qemu's answer, {linux} equal to Linux's where qemu's check order differs, {excluded} not compared "
          f"(host-dependent); {mismatches} mismatches; {len(EXCLUDED)} syscall groups left out of the "
          f"compare list")
    for rule, n in sorted(rules.items(), key=lambda kv: -kv[1]):
        print(f"    {n:6d}  {rule}")
    ended, batches, failures = 0, 0, 0
    for seed in range(1, seeds + 1):
        with tempfile.TemporaryDirectory() as tmp:
            ours = harness.run_ncpu(binary, ["prog", "all", str(seed), str(calls)], harness.make_tree(Path(tmp)))
        words = ours.stdout.decode().split()
        failures += ours.status != 0 or not words or words[0] != "done"
        if words and words[0] == "done":
            batches, ended = batches + int(words[1]), ended + int(words[3])
    print(f"syscalls, any number (ours only): {seeds * calls} calls in {batches} forked batches, {ended} batches "
          f"ended early by a call (exit by signal etc.), {failures} host exceptions or bad exits")
    return mismatches == 0 and failures == 0


def cli(examples: int) -> bool:
    import cli_fuzz
    from hypothesis import HealthCheck, given, settings

    parsers = cli_fuzz.subcommands()
    counts, failures = Counter(), []
    with tempfile.TemporaryDirectory() as tmp:
        paths = cli_fuzz.make_inputs(tmp)
        for name, parser in parsers.items():
            @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                      suppress_health_check=list(HealthCheck))
            @given(cli_fuzz.command_lines(name, parser, paths))
            def run(argv):
                outcome = cli_fuzz.run_forked(argv, 3.0, tmp)
                counts["runs"] += 1
                counts["stopped at 3 s"] += outcome.status is None
                if outcome.traceback:
                    failures.append(" ".join(argv)[:200])

            run()
    print(f"command line: {len(parsers)} subcommands, {counts['runs']} runs, {counts['stopped at 3 s']} still "
          f"busy at 3 s and stopped, {len(failures)} tracebacks")
    for line in failures[:5]:
        print(f"    ncpu {line}")
    return not failures


def cache(mutations: int) -> bool:
    import os

    from ncpu.synth import cache as synth_cache
    from ncpu.synth.portfolio import cached_result
    from ncpu.synth.spec import parse_spec

    spec = parse_spec({"inputs": ["R0"], "outputs": ["R0"], "examples": [{"in": [1], "out": [2]}, {"in": [5], "out": [6]}]})
    good = json.dumps({"format": synth_cache.FORMAT, "asm": "ADDI R0, R0, 1\nHALT", "solver": "enumerative",
                       "seconds": 0.1}).encode()
    rng, counts = random.Random(0), Counter()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["NCPU_CACHE_DIR"] = tmp
        path = synth_cache.cache_dir() / f"{spec.canonical_key()}.json"
        path.parent.mkdir(parents=True)
        for i in range(mutations):
            data = bytearray(good)
            for _ in range(rng.randint(1, 6) if i else 0):      # the first one unmutated: a hit
                data[rng.randrange(len(data))] = rng.randrange(256)
            path.write_bytes(bytes(data))
            try:
                hit = cached_result(spec, spec.canonical_key(), engine="reference")
                counts["verified hit" if hit else "miss"] += 1
            except Exception:  # noqa: BLE001 - counting what escapes is the point
                counts["exception"] += 1
    print(f"synthesis cache: {mutations} mutated entries: {counts['verified hit']} verified hits, "
          f"{counts['miss']} misses, {counts['exception']} exceptions")
    return counts["exception"] == 0


def elf(mutations: int) -> bool:
    import arm64linux_harness as harness
    from ncpu.arm64.cpu import Memory
    from ncpu.arm64.linux import elf as loader
    from ncpu.arm64.linux.errors import ElfError

    data = harness.compile_c("hello").read_bytes()
    rng, counts = random.Random(0), Counter()
    for _ in range(mutations):
        mutated = bytearray(data[:4096] if rng.random() < 0.5 else data)
        for _ in range(rng.randint(1, 8)):
            mutated[rng.randrange(128 if rng.random() < 0.7 else len(mutated))] = rng.randrange(256)
        try:
            loader.load(Memory(), bytes(mutated), "f")
            counts["loaded"] += 1
        except ElfError:
            counts["ElfError"] += 1
        except Exception:  # noqa: BLE001
            counts["exception"] += 1
    print(f"ELF loader: {mutations} mutated binaries: {counts['loaded']} loaded, {counts['ElfError']} one-line "
          f"ElfError, {counts['exception']} other exceptions")
    return counts["exception"] == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="syscall fuzzer runs per mode (default 3)")
    parser.add_argument("--calls", type=int, default=3000, help="calls per syscall run (default 3000)")
    parser.add_argument("--cli-examples", type=int, default=10, help="command lines per subcommand (default 10)")
    parser.add_argument("--mutations", type=int, default=2000, help="mutated cache entries and ELF files (default 2000)")
    opts = parser.parse_args()
    started = time.monotonic()
    ok = all([syscalls(opts.seeds, opts.calls), cli(opts.cli_examples), cache(opts.mutations), elf(opts.mutations)])
    print(f"{'all passed' if ok else 'FAILURES'} in {time.monotonic() - started:.0f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
