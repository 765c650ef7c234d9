"""Running a guest program under qemu-aarch64 and under our machine, the same way.

Both get the same argv (qemu's -0 sets argv[0]), the same environment and the
same stdin; qemu runs with its cwd in one copy of the tree, we run with
--root on an identical copy, and the guest's cwd is the tree's top in both.
Exit statuses are normalized to the shell convention (128+signal).

qemu-user has no file-system sandbox: a guest that execs `/bin/od` runs the
host's program (GNU coreutils on an x86 host), and without a binfmt_misc
entry the host kernel cannot exec an AArch64 file, so BusyBox's sh, whose
exec of /proc/self/exe fails under qemu, falls back to PATH and reaches host
tools.  Its output is then not the guest's.  So every qemu run logs its
syscalls (-d strace) and `run_qemu` refuses a reference that executed a host
program (ReferenceEscaped); for BusyBox, `applets=` gives qemu's guest a PATH
of one-line host wrappers that run each applet under qemu again.  That PATH
string is the one thing the two sides see differently.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
CACHE = REPO / ".cache"
C_DIR = Path(__file__).resolve().parent / "c"
GCC = "aarch64-linux-gnu-gcc"
QEMU = "qemu-aarch64"
ENV = {"PATH": "/bin:/usr/bin", "HOME": "/", "TZ": "UTC", "LC_ALL": "C", "FOO": "bar"}


class ToolMissing(RuntimeError):
    pass


class ReferenceEscaped(RuntimeError):
    """qemu's guest executed a host program: its output is no reference."""


def require(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        raise ToolMissing(f"{tool} is not installed: the arm64 tests need it (apt-get install "
                          f"{'gcc-aarch64-linux-gnu' if 'gcc' in tool else 'qemu-user'})")
    return path


@dataclass
class Outcome:
    stdout: bytes
    stderr: bytes
    status: int
    instructions: int = 0
    messages: tuple = ()

    def triple(self):
        return self.stdout, self.stderr, self.status


def compile_c(name: str, opt: str = "-O2", flags: tuple[str, ...] = ()) -> Path:
    """Build tests/arm64/linux/c/NAME.c once per source version into .cache/arm64-c/.

    `flags` are extra gcc options (e.g. ("-pthread",)); they are part of the cache key.
    """
    require(GCC)
    src = C_DIR / f"{name}.c"
    digest = hashlib.sha256(src.read_bytes() + opt.encode() + " ".join(flags).encode()).hexdigest()[:12]
    out_dir = CACHE / "arm64-c"
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"{name}{opt}-{digest}"
    if not out.exists():
        tmp = out.with_suffix(f".tmp{os.getpid()}")
        subprocess.run([GCC, "-static", opt, *flags, "-w", "-o", str(tmp), str(src), "-lm"], check=True)
        os.replace(tmp, out)
    return out


def busybox() -> Path:
    """Debian's arm64 busybox-static, fetched once by scripts/fetch_busybox.sh."""
    path = CACHE / "busybox" / "busybox"
    if not path.exists():
        script = REPO / "scripts" / "fetch_busybox.sh"
        result = subprocess.run(["sh", str(script), str(path.parent)], capture_output=True, text=True)
        if result.returncode != 0 or not path.exists():
            raise ToolMissing(f"could not fetch busybox-static: {result.stderr.strip()[-500:]}")
    return path


def _status(code: int) -> int:
    return 128 - code if code < 0 else code


def run_qemu(binary, args, cwd, *, stdin: bytes = b"", env=None, timeout=120, applets: bool = False,
             guard: bool = True) -> Outcome:
    """Run under qemu-aarch64; `applets`: BINARY is BusyBox and its applets stand on the guest's PATH.
    `guard=False` runs without the system-call log that catches host programs: qemu-user shares its
    descriptor table with the guest, so the log file is a descriptor the guest can see, which a
    program that probes descriptors (the system call fuzzer) must not meet."""
    qemu = require(QEMU)
    argv0 = args[0] if args else "prog"
    env = dict(env or ENV)
    with tempfile.TemporaryDirectory(prefix="ncpu-qemu-") as work:
        logs = Path(work) / "logs"
        logs.mkdir()
        trace = ["-d", "strace", "-D", str(logs / "%d.log")] if guard else []
        allowed = set()
        if applets:
            wrappers = _applet_wrappers(Path(work) / "path", qemu, trace, Path(binary).resolve())
            env["PATH"] = str(wrappers)
            allowed.add(wrappers)
        proc = subprocess.run([qemu, *trace, "-0", argv0, str(binary), *args[1:]], cwd=cwd, input=stdin,
                              capture_output=True, env=env, timeout=timeout)
        escaped = _host_execs(logs, allowed)
    if escaped:
        raise ReferenceEscaped(f"qemu's guest executed host program(s) {sorted(escaped)}: not a reference")
    # qemu reports uncaught signals itself; that line is not the guest's output
    err = b"".join(l for l in proc.stderr.splitlines(True) if not l.startswith(b"qemu: uncaught target signal"))
    return Outcome(proc.stdout, err, _status(proc.returncode))


_EXECVE = re.compile(rb'execve(?:at)?\((?:[^,"]*,)?"([^"]*)"')


def _host_execs(logs: Path, allowed: set[Path]) -> set[str]:
    """Absolute paths the guest passed to execve that name an existing host file outside `allowed`."""
    found = set()
    for log in logs.iterdir():
        for match in _EXECVE.finditer(log.read_bytes()):
            path = match.group(1).decode(errors="replace")
            if not path.startswith("/") or path.startswith("/proc/self/"):
                continue    # relative names resolve in the tree; /proc/self/exe is the guest binary
            if os.path.exists(path) and Path(path).resolve().parent not in allowed:
                found.add(path)
    return found


def _applet_wrappers(directory: Path, qemu: str, trace: list[str], busybox: Path) -> Path:
    """One host script per applet: `exec qemu BusyBox` with the applet as argv[0]."""
    directory.mkdir()
    names = subprocess.run([qemu, str(busybox), "--list"], capture_output=True, text=True, check=True,
                           env={}).stdout.split()
    for name in names:
        script = directory / name
        script.write_text(f'#!/bin/sh\nexec {qemu} {" ".join(trace)} -0 {name} {busybox} "$@"\n')
        script.chmod(0o755)
    return directory.resolve()


def run_ncpu(binary, args, root, *, stdin: bytes = b"", env=None, max_steps=2_000_000_000,
             seed: int = 0, cpu_api=None) -> Outcome:
    """Run in this process through the library (the CLI is tested separately)."""
    from ncpu.arm64.linux import Machine
    with tempfile.TemporaryFile() as fin, tempfile.TemporaryFile() as fout, tempfile.TemporaryFile() as ferr:
        fin.write(stdin)
        fin.seek(0)
        machine = Machine(root=str(root), max_steps=max_steps, seed=seed,
                          stdio=(fin.fileno(), fout.fileno(), ferr.fileno()), cpu_api=cpu_api)
        result = machine.run(str(binary), list(args), env=env or ENV)
        fout.seek(0)
        ferr.seek(0)
        return Outcome(fout.read(), ferr.read(), result.status, result.instructions, tuple(result.messages))


def make_tree(base: Path, files: dict[str, bytes | str] | None = None) -> Path:
    """A small root tree with fixed times (so ls -l can be compared)."""
    base.mkdir(parents=True, exist_ok=True)
    for rel, content in (files or {}).items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    for dirpath, dirnames, filenames in os.walk(base, topdown=False):
        for name in filenames + dirnames:
            os.utime(os.path.join(dirpath, name), (1_600_000_000, 1_600_000_000), follow_symlinks=False)
    os.utime(base, (1_600_000_000, 1_600_000_000))
    return base
