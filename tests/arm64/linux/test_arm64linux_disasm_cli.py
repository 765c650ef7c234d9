"""`ncpu disasm --arch arm64`: an ELF's code sections or a raw file; `ncpu arm64` only runs binaries."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from elftools.elf.elffile import ELFFile

import arm64linux_harness as harness
import ncpu
from ncpu.arm64.cpu.disasm import disassemble_word
from ncpu.cli import main


_ROW = re.compile(r"^ *([0-9a-f]+):  ([0-9a-f]{8})  (.*)$", re.M)


def _text_section(path):
    elf = ELFFile(io.BytesIO(path.read_bytes()))
    text = elf.get_section_by_name(".text")
    return text["sh_addr"], text.data()


def _lines(out: str) -> dict[int, tuple[int, str]]:
    """address -> (word, text) of each `ADDR:  WORD  TEXT` line."""
    return {int(m[1], 16): (int(m[2], 16), m[3]) for m in _ROW.finditer(out)}


def test_elf_text_section_word_by_word(capsys):
    binary = harness.compile_c("hello", "-O2")
    assert main(["disasm", "--arch", "arm64", str(binary)]) == 0
    out = capsys.readouterr().out
    assert "\n.text:\n" in out
    addr, code = _text_section(binary)
    rows = _lines(out)
    for i in range(0, len(code) // 4 * 4, 4 * 97):      # a sample of the section's words
        word = int.from_bytes(code[i:i + 4], "little")
        assert rows[addr + i] == (word, disassemble_word(word, addr + i))


def test_elf_from_an_address_and_raw_file_at_an_address(capsys, tmp_path):
    binary = harness.compile_c("hello", "-O2")
    addr, code = _text_section(binary)
    start = addr + 64
    assert main(["disasm", "--arch", "arm64", str(binary), "--addr", hex(start)]) == 0
    rows = _lines(capsys.readouterr().out)
    assert min(rows) == start and max(rows) == addr + len(code) // 4 * 4 - 4
    raw = tmp_path / "raw.bin"
    raw.write_bytes(code[64:64 + 40] + b"\x01")                   # a trailing partial word is ignored
    assert main(["disasm", "--arch", "arm64", str(raw), "--addr", hex(start)]) == 0
    raw_rows = _lines(capsys.readouterr().out)
    assert raw_rows == {a: rows[a] for a in range(start, start + 40, 4)}


@pytest.mark.parametrize("args, fragment", [
    (["--arch", "arm64", "--no-labels"], "--no-labels applies to --arch ncpu only"),
    (["--addr", "0x10"], "--addr applies to --arch arm64 only"),
    (["--arch", "arm64", "--addr", "0x10"], "no executable section holds address 0x10"),
])
def test_option_errors_are_one_line(args, fragment, capsys):
    binary = harness.compile_c("hello", "-O2")
    assert main(["disasm", str(binary), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ncpu: error: ") and err.endswith(f"{fragment}\n") and err.count("\n") == 1


def test_malformed_elf_is_one_line(tmp_path):
    bad = tmp_path / "bad"
    bad.write_bytes(harness.compile_c("hello", "-O2").read_bytes()[:200])
    result = subprocess.run([sys.executable, "-m", "ncpu", "disasm", "--arch", "arm64", str(bad)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"ncpu: error: {bad}: ") and len(result.stderr.splitlines()) == 1


def test_a_guest_named_disasm_runs(tmp_path):
    guest = tmp_path / "disasm"
    shutil.copy(harness.compile_c("hello", "-O2"), guest)
    src = str(Path(ncpu.__file__).resolve().parents[1])
    result = subprocess.run([sys.executable, "-m", "ncpu", "arm64", "disasm"], capture_output=True, text=True,
                            cwd=tmp_path, env={**os.environ, "PYTHONPATH": src}, timeout=600)
    reference = harness.run_qemu(guest, ["disasm"], tmp_path)
    assert (result.stdout.encode(), result.returncode) == (reference.stdout, reference.status) != (b"", 2)
