"""`ncpu muxleq`: bytes pass through unchanged, images load, errors are one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[2] / "src")
CAT = """
loop: in c
  jeq c NEG1 done       ; end of input reads as 0xFFFF
  out c
  jmp loop
done: halt
.data
c: .word 0
"""


def ncpu(*args: str, data: bytes = b"") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=SRC)
    return subprocess.run([sys.executable, "-m", "ncpu", "muxleq", *args], input=data,
                          capture_output=True, env=env, timeout=300)


@pytest.fixture(scope="module")
def cat_image(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("muxleq")
    (folder / "cat.masm").write_text(CAT)
    done = ncpu("asm", str(folder / "cat.masm"), "-o", str(folder / "cat.dec"))
    assert done.returncode == 0, done.stderr
    return folder / "cat.dec"


def test_binary_bytes_pass_through_unchanged(cat_image):
    data = bytes(range(256)) + b"\r\n\n\x00\xff" * 3
    done = ncpu("run", str(cat_image), data=data)
    assert (done.returncode, done.stdout, done.stderr) == (0, data, b"")


def test_a_reader_that_leaves_ends_it_quietly(cat_image, tmp_path):
    """`ncpu muxleq run IMAGE | head -1`: SIGPIPE's status, nothing on stderr (ncpu.pipes)."""
    big = tmp_path / "lines.txt"
    big.write_bytes(b"line\n" * 200_000)
    with open(big, "rb") as stdin:
        proc = subprocess.Popen([sys.executable, "-m", "ncpu", "muxleq", "run", str(cat_image)], stdin=stdin,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=SRC))
        first = proc.stdout.readline()
        proc.stdout.close()
        _, err = proc.communicate(timeout=300)
    assert first == b"line\n"
    assert (proc.returncode, err) == (128 + 13, b"")


def test_bundled_program_by_name_and_stats():
    done = ncpu("run", "calculator", "--stats", data=b"1+1\n")
    assert done.returncode == 0 and done.stdout == b"2\n"
    assert b"steps in" in done.stderr


def test_budget_and_errors(cat_image, tmp_path):
    done = ncpu("run", str(cat_image), "--max-steps", "40", data=b"abcdefgh")
    assert done.returncode == 1 and b"step budget of 40" in done.stderr
    assert done.stdout and b"abcdefgh".startswith(done.stdout) and done.stdout != b"abcdefgh"
    bad = tmp_path / "bad.dec"
    bad.write_text("1 2 three")
    done = ncpu("run", str(bad))
    assert done.returncode == 2 and done.stderr.decode().count("\n") == 1 and "cell 2" in done.stderr.decode()
    source = tmp_path / "bad.masm"
    source.write_text("subleq 1 2 3\nnope\n")
    done = ncpu("asm", str(source))
    assert done.returncode == 2 and "bad.masm:2: unknown instruction" in done.stderr.decode()


def test_input_without_a_file_descriptor_is_its_end(cat_image, monkeypatch, capsysbinary):
    """cli.main called by a program that replaced sys.stdin with a stream of no descriptor
    (pytest's own capture is one): the guest reads end of input, no traceback."""
    import io

    from ncpu.cli import main

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"ignored")))
    assert main(["muxleq", "run", str(cat_image)]) == 0
    assert capsysbinary.readouterr().out == b""
