"""Benchmark: the same CPU-bound static AArch64 binary under ncpu and under qemu-aarch64.

    python benchmarks/arm64_vs_qemu.py [--scale N]

Builds benchmarks/arm64_bench.c with aarch64-linux-gnu-gcc -static -O2, runs it
under both (same arguments, outputs checked equal), and prints both wall
times, our guest instructions per second, and the ratio.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--scale", type=int, default=100, help="rounds of work (default 100: a few seconds under qemu)")
    opts = parser.parse_args()
    from ncpu.arm64.linux import Machine

    with tempfile.TemporaryDirectory() as tmp:
        binary = Path(tmp) / "arm64_bench"
        subprocess.run(["aarch64-linux-gnu-gcc", "-static", "-O2", "-o", str(binary), str(HERE / "arm64_bench.c")],
                       check=True)
        args = [str(opts.scale)]
        start = time.perf_counter()
        qemu = subprocess.run(["qemu-aarch64", str(binary), *args], capture_output=True, check=True)
        qemu_s = time.perf_counter() - start

        out_path = Path(tmp) / "out"
        with open(out_path, "wb") as out:
            start = time.perf_counter()
            result = Machine(root=tmp, stdio=(0, out.fileno(), 2)).run(str(binary), ["arm64_bench", *args])
            ours_s = time.perf_counter() - start
        ours_out = out_path.read_bytes()
    same = ours_out == qemu.stdout and result.status == 0
    print(f"program        benchmarks/arm64_bench.c -O2, scale {opts.scale}")
    print(f"qemu-aarch64   {qemu_s:8.2f} s")
    print(f"ncpu arm64     {ours_s:8.2f} s  ({result.instructions:,} guest instructions, "
          f"{result.instructions / ours_s / 1e6:.1f} MIPS incl. start-up)")
    print(f"ratio          {ours_s / qemu_s:8.1f}x qemu's time")
    print(f"outputs equal  {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
