"""ncc compiles itself to a fixed point.

stage 0: aarch64-linux-gnu-gcc builds ncc; stage 0 compiles ncc.c into stage 1;
stage 1 compiles ncc.c into stage 2; stage 1 and stage 2 must be the same bytes.
Both checks run by default: under qemu-aarch64, and all on our machine.
"""

from __future__ import annotations

import shutil

import guest_harness as gh

HELLO = '#include <stdio.h>\nint main(void) { printf("made by stage %d\\n", 2); return 5; }\n'


def test_fixed_point_under_qemu(tree, tmp_path):
    stage1, stage2 = tmp_path / "ncc1", tmp_path / "ncc2"
    result = gh.ncc_qemu(tree / "bin" / "ncc", gh.NCC_SRC, stage1)
    assert result.returncode == 0, result.stderr.decode()
    result = gh.ncc_qemu(stage1, gh.NCC_SRC, stage2)
    assert result.returncode == 0, result.stderr.decode()
    assert stage1.read_bytes() == stage2.read_bytes()
    # and the fixed point is a working compiler
    (tmp_path / "hello.c").write_text(HELLO)
    assert gh.ncc_qemu(stage2, tmp_path / "hello.c", tmp_path / "hello").returncode == 0
    out = gh.run_qemu(tmp_path / "hello")
    assert (out.stdout, out.status) == (b"made by stage 2\n", 5)


def test_fixed_point_on_machine(tree, tmp_path):
    root = tmp_path / "root"
    shutil.copytree(tree, root, ignore=shutil.ignore_patterns(".done"))
    src = "/src/ncc/ncc.c"
    first = gh.harness.run_ncpu(root / "bin" / "ncc", ["ncc", "-o", "/ncc1", src], root, max_steps=20_000_000_000)
    assert first.status == 0, first.stderr.decode()
    second = gh.harness.run_ncpu(root / "ncc1", ["ncc1", "-o", "/ncc2", src], root, max_steps=20_000_000_000)
    assert second.status == 0, second.stderr.decode()
    assert (root / "ncc1").read_bytes() == (root / "ncc2").read_bytes()
    # the machine's stage 1 is qemu's stage 1
    qemu_stage1 = tmp_path / "qemu-ncc1"
    assert gh.ncc_qemu(tree / "bin" / "ncc", gh.NCC_SRC, qemu_stage1).returncode == 0
    assert qemu_stage1.read_bytes() == (root / "ncc1").read_bytes()
