"""Malformed or unsupported executables give one clear line, never a traceback."""

from __future__ import annotations

import struct
import subprocess
import sys

import pytest

import arm64linux_harness as harness
from ncpu.arm64.cpu import Memory
from ncpu.arm64.linux import elf
from ncpu.arm64.linux.errors import ElfError


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "ncpu", "arm64", *map(str, args)], capture_output=True,
                          cwd=cwd, timeout=300)


def _bad_files(tmp_path, cli: bool = False):
    good = harness.compile_c("hello", "-O2").read_bytes()
    wrong_machine = bytearray(good)
    struct.pack_into("<H", wrong_machine, 18, 62)                 # EM_X86_64
    dynamic = subprocess.run([harness.GCC, "-x", "c", "-", "-o", str(tmp_path / "dyn")],
                             input=b"int main(void){return 0;}", capture_output=True)
    files = {
        "text": (b"#!/bin/sh\necho hi\n" * 3, "not an ELF"),
        "empty": (b"", "not an ELF"),
        "truncated_header": (good[:40], "truncated"),
        "truncated_segments": (good[:3000], "truncated"),
        "wrong_machine": (bytes(wrong_machine), "wrong machine"),
        "elf32": (good[:4] + b"\x01" + good[5:], "64-bit"),
    }
    if dynamic.returncode == 0 and cli:
        # loads, but the empty root has no /lib/ld-linux-aarch64.so.1 for it
        files["dynamic"] = ((tmp_path / "dyn").read_bytes(), "interpreter /lib/ld-linux-aarch64.so.1 is not in the root")
    return files


def test_loader_errors(tmp_path):
    for name, (data, expected) in _bad_files(tmp_path).items():
        with pytest.raises(ElfError) as info:
            elf.load(Memory(), data, name)
        assert expected in str(info.value), (name, str(info.value))


def test_cli_one_line_errors(tmp_path):
    for name, (data, expected) in _bad_files(tmp_path, cli=True).items():
        path = tmp_path / name
        path.write_bytes(data)
        result = _cli(path)
        err = result.stderr.decode()
        assert result.returncode == 2, (name, err)
        assert err.count("\n") == 1 and "Traceback" not in err and expected in err, (name, err)


def test_static_pie_loads(tmp_path):
    src = harness.C_DIR / "hello.c"
    out = tmp_path / "pie"
    subprocess.run([harness.GCC, "-static-pie", "-O2", "-o", str(out), str(src)], check=True)
    root = harness.make_tree(tmp_path / "root")
    result = harness.run_ncpu(out, ["prog"], root)
    assert (result.stdout, result.stderr, result.status) == (b"hello, world\nsecond line\n", b"to stderr\n", 3)
