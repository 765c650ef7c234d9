"""glibc's routines as whole functions (its hand-written SIMD string loops, strtoul, strtod,
printf) on thousands of random inputs: digests must equal qemu-aarch64's.

One wrong instruction in a rarely taken path (a tail of 1-15 bytes, a byte >= 0x80, an
unaligned start) changes a digest here, where a single-instruction test from random
states may never reach it. tests/arm64/linux/c/libc_fuzz.c has the routines and inputs.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

import arm64linux_harness as harness


def _compare(seed: int, count: int, tmp_path):
    binary = harness.compile_c("libc_fuzz", "-O2")
    argv = ["libc_fuzz", str(seed), str(count)]
    roots = [harness.make_tree(tmp_path / side) for side in ("q", "n")]
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(harness.run_qemu, binary, argv, roots[0])
        ours = harness.run_ncpu(binary, argv, roots[1])
        ref = future.result()
    assert ref.status == 0 and len(ref.stdout.splitlines()) == 14, ref
    mismatched = [f"ours {a!r} qemu {b!r}" for a, b in zip(ours.stdout.splitlines(), ref.stdout.splitlines()) if a != b]
    assert not mismatched, "\n".join(mismatched)
    assert (ours.stdout, ours.stderr, ours.status) == ref.triple()


def test_libc_routines_match_qemu(tools, tmp_path):
    _compare(1, 3000, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 6))
def test_libc_routines_match_qemu_long(seed, tools, tmp_path):
    _compare(seed, 20000, tmp_path)
