"""How fast ncc compiles: itself (ncc.c plus its C library) on our machine and under
qemu-aarch64, beside gcc compiling the same source natively on this host.

    python benchmarks/ncc_speed.py

Needs aarch64-linux-gnu-gcc and qemu-aarch64 (scripts/setup.sh --test) and a host cc.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tests" / "guest"))

import guest_harness as gh  # noqa: E402


def lines(path: Path) -> int:
    return path.read_text().count("\n")


def timed(argv, repeat=3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    tree = gh.build_tree()
    src_lines = lines(gh.NCC_SRC) + lines(gh.LIBDIR / "libc.c") + lines(gh.LIBDIR / "_libc.h")
    print(f"input: ncc.c + libc.c + _libc.h = {src_lines} lines")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "root"
        shutil.copytree(tree, root, ignore=shutil.ignore_patterns(".done"))
        rows = []
        # warm the machine's compiled code once (numba cache) before timing
        gh.harness.run_ncpu(root / "bin" / "ncc", ["ncc", "-o", "/warm", "/src/ncc/ncc.c"], root,
                            max_steps=20_000_000_000)
        for stage, binary, out in (("stage 0 (gcc -O2 build)", "/bin/ncc", "/ncc1"),
                                   ("stage 1 (ncc build)", "/ncc1", "/ncc2")):
            t0 = time.perf_counter()
            r = gh.harness.run_ncpu(root / binary.lstrip("/"), ["ncc", "-o", out, "/src/ncc/ncc.c"], root,
                                    max_steps=20_000_000_000)
            wall = time.perf_counter() - t0
            assert r.status == 0, r.stderr
            qemu = timed(["qemu-aarch64", str(root / binary.lstrip("/")), "-L", str(root / "usr/lib/ncc"),
                          "-o", str(Path(tmp) / "q"), str(root / "src/ncc/ncc.c")])
            rows.append((stage, r.instructions, wall, qemu))
        same = (root / "ncc1").read_bytes() == (root / "ncc2").read_bytes()
        gcc_o0 = timed(["cc", "-O0", "-fwrapv", "-w", "-o", str(Path(tmp) / "g0"), str(gh.NCC_SRC)])
        gcc_o2 = timed(["cc", "-O2", "-fwrapv", "-w", "-o", str(Path(tmp) / "g2"), str(gh.NCC_SRC)])
    print(f"{'ncc compiling itself':26} {'instructions':>14} {'machine s':>10} {'lines/s':>9} "
          f"{'MIPS':>7} {'qemu s':>8}")
    for stage, instr, wall, qemu in rows:
        print(f"{stage:26} {instr:>14,} {wall:>10.2f} {src_lines / wall:>9,.0f} {instr / wall / 1e6:>7.2f} "
              f"{qemu:>8.3f}")
    print(f"stage 1 == stage 2: {same}")
    print(f"host gcc -O0 on ncc.c (native, x86-64): {gcc_o0:.3f} s;  -O2: {gcc_o2:.3f} s")


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
