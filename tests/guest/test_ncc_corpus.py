"""ncc against gcc on the corpus: same stdout, stderr and exit status.

Where each part runs:
- every corpus program: ncc (stage 0) compiles it under qemu-aarch64, the result
  runs under qemu-aarch64 (default run);
- every corpus program compiled by ncc also runs on our machine (default run);
- a sample is compiled by ncc running on our machine (default run); all of them
  with `-m slow`.
"""

from __future__ import annotations

import shutil

import pytest

import guest_harness as gh

PROGRAMS = gh.corpus()
ARGS = ["one", "two words"]
STDIN = b"some input\nsecond line\n"
ON_MACHINE_COMPILE_SAMPLE = {"struct_by_value", "pp_function_macros", "variadic_sum", "switch_fallthrough",
                             "global_init", "gen_convert_int", "function_pointers", "pp_include"}


def test_corpus_is_large_enough():
    assert len(PROGRAMS) >= 150


def _reference(src, workdir):
    return gh.harness.run_qemu(gh.gcc_build(src), ["prog", *ARGS], workdir, stdin=STDIN)


def _compile_qemu(tree, src, out):
    result = gh.ncc_qemu(tree / "bin" / "ncc", src, out)
    assert result.returncode == 0, result.stderr.decode()
    return out


@pytest.fixture(scope="module")
def compiled(tree, tmp_path_factory):
    """Every corpus program compiled by ncc under qemu, once."""
    out_dir = tmp_path_factory.mktemp("ncc-corpus")
    return {src.stem: _compile_qemu(tree, src, out_dir / src.stem) for src in PROGRAMS}


@pytest.mark.parametrize("src", PROGRAMS, ids=lambda p: p.stem)
def test_ncc_matches_gcc_under_qemu(src, compiled, tmp_path):
    (tmp_path / "ref").mkdir()
    (tmp_path / "ncc").mkdir()
    want = _reference(src, tmp_path / "ref")
    got = gh.harness.run_qemu(compiled[src.stem], ["prog", *ARGS], tmp_path / "ncc", stdin=STDIN)
    assert got.triple() == want.triple()


@pytest.mark.parametrize("src", PROGRAMS, ids=lambda p: p.stem)
def test_ncc_binary_runs_on_machine(src, compiled, tmp_path):
    (tmp_path / "ref").mkdir()
    root = tmp_path / "root"
    root.mkdir()
    want = _reference(src, tmp_path / "ref")
    shutil.copy(compiled[src.stem], root / "prog")
    got = gh.harness.run_ncpu(root / "prog", ["prog", *ARGS], root, stdin=STDIN)
    assert got.triple() == want.triple()


def _compile_on_machine(tree, src, tmp_path):
    """ncc (stage 0) running on our machine compiles `src`; returns the binary."""
    root = tmp_path / "root"
    shutil.copytree(tree, root, ignore=shutil.ignore_patterns(".done"))
    shutil.copy(src, root / "prog.c")
    if (src.parent / "inc").is_dir():
        shutil.copytree(src.parent / "inc", root / "inc")
    result = gh.harness.run_ncpu(root / "bin" / "ncc", ["ncc", "-o", "/prog", "/prog.c"], root,
                                 max_steps=10_000_000_000)
    assert result.status == 0, result.stderr.decode()
    return root


def _check_compiled_on_machine(tree, src, tmp_path):
    root = _compile_on_machine(tree, src, tmp_path)
    # the machine's ncc writes the same bytes as qemu's
    qemu_out = _compile_qemu(tree, src, tmp_path / "qemu-prog")
    assert (root / "prog").read_bytes() == qemu_out.read_bytes()
    (tmp_path / "ref").mkdir()
    want = _reference(src, tmp_path / "ref")
    got = gh.harness.run_ncpu(root / "prog", ["prog", *ARGS], root, stdin=STDIN)
    assert got.triple() == want.triple()


SAMPLE = [p for p in PROGRAMS if p.stem in ON_MACHINE_COMPILE_SAMPLE]


@pytest.mark.parametrize("src", SAMPLE, ids=lambda p: p.stem)
def test_ncc_on_machine_sample(src, tree, tmp_path):
    _check_compiled_on_machine(tree, src, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("src", PROGRAMS, ids=lambda p: p.stem)
def test_ncc_on_machine_all(src, tree, tmp_path):
    _check_compiled_on_machine(tree, src, tmp_path)
