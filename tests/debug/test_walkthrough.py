"""docs/debugging.md's walk-through, run: each `$ ` command of its console blocks, in order, in
a scratch directory, and what it prints compared with what the document shows."""

from __future__ import annotations

import re
import shutil
import tempfile
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gdb_harness import C_DIR, ENV, GCC, GDB, REPO, free_port, require

DOC = REPO / "docs" / "debugging.md"
NOISE = "warning: remote target does not support file transfer"


def steps() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) of the walk-through, in order."""
    text = DOC.read_text()
    section = text[text.index("## Walk-through"):]
    section = section[:section.index("\n## ", 1)]
    out = []
    for block in re.findall(r"```console\n(.*?)```", section, re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            else:
                out[-1][1].append(line)
    return out


def _shell(tmp_path):
    """A scratch directory with tour.c and an `ncpu` command on PATH."""
    shutil.copy(C_DIR / "tour.c", tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "ncpu"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m ncpu "$@"\n')
    shim.chmod(0o755)
    return dict(ENV, PATH=f"{bin_dir}:{ENV['PATH']}", PYTHONPATH=str(REPO / "src"))


def _listening(port: int) -> bool:
    """Is something listening on the TCP port? (Read from /proc: a probe connection would be the
    one connection the server accepts.)"""
    with open("/proc/net/tcp") as f:
        rows = [line.split() for line in f.readlines()[1:]]
    return any(r[1].endswith(f":{port:04X}") and r[3] == "0A" for r in rows)


def _wait_for(port: int, server, timeout: float = 240) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end and server.poll() is None:
        if _listening(port):
            return
        time.sleep(0.2)
    raise AssertionError("the gdb server did not start listening")


def _heap(line: str) -> str:
    """Heap addresses, compared without them (static glibc keeps the program's directory name on
    the heap: they move with its length, kept as the document's by _scratch)."""
    return re.sub(r"(bytes at) 0x[0-9a-f]+", r"\1 ADDR", line)


@pytest.fixture
def scratch():
    """A directory whose path has the length of the document's (/tmp/tour-walkthru): counts of
    instructions and edges depend on it (see _heap)."""
    path = Path(tempfile.mkdtemp(prefix="tour-", dir="/tmp"))
    assert len(str(path)) == len("/tmp/tour-walkthru")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _run(commands, tmp_path) -> None:
    env = _shell(tmp_path)
    port = free_port()
    servers = []
    try:
        for command, expected in commands:
            command = command.replace(":1234", f":{port}").replace("-g 1234", f"-g {port}")
            if command.endswith("&"):
                servers.append(subprocess.Popen(["bash", "-c", command[:-1]], cwd=tmp_path, env=env))
                _wait_for(port, servers[-1])
                continue
            run = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True, timeout=600)
            for server in servers:                    # the gdb session ends the server: its output is complete
                server.wait(timeout=120)
            got = [_heap(line.rstrip()) for line in run.stdout.splitlines() if not line.startswith(NOISE)]
            want = [_heap(line.rstrip()) for line in expected if not line.startswith(NOISE)]
            assert got == want, command
    finally:
        for server in servers:
            if server.poll() is None:
                server.kill()


def test_the_walkthrough_has_every_step():
    commands = [c for c, _ in steps()]
    assert any(c.startswith("aarch64-linux-gnu-gcc") for c in commands)
    for tool in ("-g 1234", "reverse-continue", "reverse-stepi", "watch", "debug sanitize", "debug fuzz",
                 "debug ct"):
        assert any(tool in c for c in commands), tool


def test_the_walkthrough_builds_and_runs_the_program(scratch):
    require(GCC)
    _run(steps()[:3], scratch)             # build, write the input, run: the rest is the slow test


@pytest.mark.slow
def test_the_walkthrough_prints_what_the_document_shows(scratch):
    require(GCC, GDB)
    _run(steps(), scratch)
