"""Benchmark: host memory the ARM64 machine spends on guest processes and mappings.

    python benchmarks/arm64_guest_memory.py [--depth N] [--mmap-mib M]

Runs `ncpu arm64` (from the PYTHONPATH this script runs with) as a child on
arm64_fork_chain.c and prints the child's peak resident size (its rusage):
  - a chain of N processes (each forks the next and waits), against N = 0:
    host memory per fork;
  - one process mapping M MiB it never touches (default 2,000), against none:
    host memory of an untouched mapping.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def peak_rss(binary: Path, args: list[str], root: Path) -> tuple[int, int]:
    """(exit status, peak RSS in KiB) of `python -m ncpu arm64 BINARY ARGS` run as a child."""
    pid = os.fork()
    if pid == 0:
        try:
            devnull = os.open(os.devnull, os.O_RDWR)
            os.dup2(devnull, 0)
            os.dup2(devnull, 1)
            os.execv(sys.executable, [sys.executable, "-m", "ncpu", "arm64", "--root", str(root), str(binary), *args])
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=64, help="processes in the fork chain (default 64)")
    parser.add_argument("--mmap-mib", type=int, default=2000, help="size of the untouched mapping (default 2000)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ncpu-memory-bench-") as tmp:
        tmp = Path(tmp)
        binary = tmp / "fork_chain"
        subprocess.run(["aarch64-linux-gnu-gcc", "-static", "-O2", "-o", str(binary), str(HERE / "arm64_fork_chain.c")],
                       check=True)
        peak_rss(binary, ["0"], tmp)                  # warm the compiled loop's cache first
        status0, base = peak_rss(binary, ["0"], tmp)
        status1, chain = peak_rss(binary, [str(args.depth)], tmp)
        status2, mapped = peak_rss(binary, ["0", str(args.mmap_mib)], tmp)
    print(f"one process:                      peak RSS {base / 1024:8.1f} MiB (exit {status0})")
    print(f"chain of {args.depth} forked processes:   peak RSS {chain / 1024:8.1f} MiB (exit {status1}): "
          f"{(chain - base) / max(args.depth, 1):8.1f} KiB per fork")
    print(f"untouched {args.mmap_mib} MiB mapping:     peak RSS {mapped / 1024:8.1f} MiB (exit {status2}): "
          f"{(mapped - base) / 1024:8.1f} MiB more")
    return 0


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
