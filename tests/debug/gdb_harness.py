"""Driving gdb-multiarch against a gdb server: ours (`ncpu arm64 -g`) or qemu-aarch64 -g.

The same gdb script runs against both; `normalize` removes only what
legitimately differs (how each names threads and the inferior, and "Hardware"
in watchpoint names: qemu-user has no hardware watchpoints, so gdb uses
software ones there).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
C_DIR = Path(__file__).resolve().parent / "c"
CACHE = REPO / ".cache" / "debug-c"
GDB = "gdb-multiarch"
GCC = "aarch64-linux-gnu-gcc"
QEMU = "qemu-aarch64"
ENV = {"PATH": "/bin:/usr/bin", "HOME": "/", "LC_ALL": "C"}


def require(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is not installed: run scripts/setup.sh --test")


def compile_c(name: str, *flags: str) -> Path:
    """tests/debug/c/NAME.c built -g -O0 -static, once per source version."""
    require(GCC)
    src = C_DIR / f"{name}.c"
    digest = hashlib.sha256(src.read_bytes() + " ".join(flags).encode()).hexdigest()[:12]
    CACHE.mkdir(parents=True, exist_ok=True)
    out = CACHE / f"{name}-{digest}"
    if not out.exists():
        tmp = out.with_suffix(f".tmp{os.getpid()}")
        # compiled in its own folder so that gdb finds the source by its bare name
        subprocess.run([GCC, "-g", "-O0", "-static", *flags, "-o", str(tmp), src.name], check=True, cwd=C_DIR)
        os.replace(tmp, out)
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_command(kind: str, port: int, binary: Path) -> list[str]:
    if kind == "qemu":
        return [QEMU, "-g", str(port), str(binary)]
    return [sys.executable, "-m", "ncpu", "arm64", "-g", str(port), str(binary)]


def gdb_session(kind: str, binary: Path, script: str, timeout: float = 240) -> tuple[str, str, int]:
    """Run `script` in gdb against a fresh server; (gdb output, guest output, guest status)."""
    require(GDB, QEMU)
    port = free_port()
    env = dict(ENV, PYTHONPATH=str(REPO / "src"))
    server = subprocess.Popen(server_command(kind, port, binary), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, env=env, cwd=C_DIR)
    prologue = ["set pagination off", "set confirm off", "set tcp connect-timeout 120"]
    if kind == "qemu":
        prologue.append("set can-use-hw-watchpoints 0")
    prologue.append(f"target remote 127.0.0.1:{port}")
    args = [GDB, "-nx", "-batch"]
    for line in prologue + script.strip().splitlines():
        args += ["-ex", line]
    try:
        gdb = subprocess.run(args + [str(binary)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=timeout, cwd=C_DIR)
        guest, _ = server.communicate(timeout=timeout)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    status = server.returncode
    return gdb.stdout, guest.decode(errors="replace"), 128 - status if status < 0 else status


def normalize(text: str) -> str:
    lines = []
    for line in text.splitlines():
        if "does not support file transfer" in line or line.startswith("qemu: uncaught target signal"):
            continue
        line = line.replace("Hardware watchpoint", "Watchpoint")
        line = re.sub(r"Thread [0-9.]+( \(CPU#\d+ \[running\]\))?", "Thread N", line)
        line = re.sub(r"\[Inferior 1 \((process \d+|Remote target)\)", "[Inferior 1", line)
        lines.append(re.sub(r"\s+", " ", line).strip())
    return "\n".join(lines)
