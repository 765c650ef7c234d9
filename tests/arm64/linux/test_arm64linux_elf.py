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


def _pyelftools_view(data: bytes):
    """The same facts read by pyelftools (the reference for elf.py's own struct reading)."""
    import io

    from elftools.elf.elffile import ELFFile

    f = ELFFile(io.BytesIO(data))
    segments = [(s["p_type"], s["p_offset"], s["p_vaddr"], s["p_filesz"], s["p_memsz"], s["p_flags"])
                for s in f.iter_segments()]
    code = [(s.name, s["sh_addr"], s.data()) for s in f.iter_sections()
            if s["sh_type"] == "SHT_PROGBITS" and s["sh_flags"] & elf.SHF_EXECINSTR]
    return f.header["e_type"], f.header["e_entry"], segments, code


def test_headers_and_code_sections_read_as_pyelftools_reads_them(tmp_path):
    names = {1: "PT_LOAD", 2: "PT_DYNAMIC", 3: "PT_INTERP", 4: "PT_NOTE", 6: "PT_PHDR", 7: "PT_TLS",
             0x6474E550: "PT_GNU_EH_FRAME", 0x6474E551: "PT_GNU_STACK", 0x6474E552: "PT_GNU_RELRO",
             0x6474E553: "PT_GNU_PROPERTY"}
    src = harness.C_DIR / "hello.c"
    binaries = [harness.compile_c("hello", "-O2")]
    for flags in (["-static-pie"], []):                       # PIE, and dynamic (PT_INTERP, PT_DYNAMIC)
        out = tmp_path / f"hello{len(binaries)}"
        subprocess.run([harness.GCC, *flags, "-O2", "-o", str(out), str(src)], check=True)
        binaries.append(out)
    for path in binaries:
        data = path.read_bytes()
        header, segments = elf.parse(data, path.name)
        e_type, entry, ref_segments, ref_code = _pyelftools_view(data)
        assert (header["e_type"], header["e_entry"]) == (e_type, entry)
        ours = [(names.get(s["type"], s["type"]), s["offset"], s["vaddr"], s["filesz"], s["memsz"], s["flags"])
                for s in segments]
        assert ours == ref_segments and len(ours) >= 4
        assert elf.code_sections(data, path.name) == ref_code and any(n == ".text" for n, _, _ in ref_code)
