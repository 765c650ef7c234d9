"""Debian arm64 programs (dynamically linked) under qemu-aarch64 and under our machine.

The root: `ncpu arm64-root` (ncpu.arm64.linux.rootfs.cached_root) builds it
once into the nCPU cache directory (arm64-root/roots/KEY, the .debs beside it).

Why `qemu-aarch64 -L ROOT` and not qemu-user-static under chroot: both need
the host kernel to execute the guest's execve targets, and this host (like
most containers) has no binfmt_misc entry for AArch64, so an exec of an arm64
file fails under either.  With -L, qemu maps every absolute path that exists
in ROOT to ROOT's file (the dynamic loader, the libraries, /etc, /usr/...)
and otherwise falls back to the host path; programs run with their working
directory in ROOT/w/CASE and use relative paths or paths that exist in ROOT,
so both machines see the same files.  Programs found through PATH run under
qemu through one-line host wrappers (as for BusyBox, see
arm64linux_harness): qemu's PATH names a host directory of scripts `exec
qemu-aarch64 -L ROOT -0 NAME ROOT/usr/bin/NAME "$@"`.  The PATH string is
the one thing the two sides see differently.  Every qemu run logs its system
calls and a run whose guest executed a host program is refused
(ReferenceEscaped), as in arm64linux_harness.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import arm64linux_harness as harness
from arm64linux_harness import Outcome, ReferenceEscaped, ToolMissing, require

PACKAGES = ["bash", "coreutils", "grep", "sed", "gawk", "findutils", "diffutils", "gzip", "xz-utils", "tar",
            "bc", "file", "python3-minimal", "libpython3-stdlib", "perl-base", "sqlite3", "make", "gcc", "libc6-dev"]
ENV = {"PATH": "/usr/bin:/bin", "HOME": "/root", "TZ": "UTC", "LC_ALL": "C", "FOO": "bar"}
WORK = "w"                  # cases run in ROOT/w/CASE


def root(packages=PACKAGES) -> Path:
    """The Debian root holding `packages`, built once into the nCPU cache (apt needs the network the
    first time; the .debs and the root stay cached)."""
    from ncpu.arm64.linux.rootfs import RootError, cached_root
    try:
        return cached_root(packages)
    except RootError as error:
        raise ToolMissing(f"cannot build the Debian arm64 root: {error}") from None


def workdir(root_path: Path, case: str, files: dict | None = None) -> Path:
    """A fresh ROOT/w/CASE holding `files` (fixed times, so ls -l compares)."""
    path = root_path / WORK / case
    shutil.rmtree(path, ignore_errors=True)
    return harness.make_tree(path, files)


def _wrappers(directory: Path, qemu: str, trace: list[str], root_path: Path) -> Path:
    directory.mkdir()
    for bindir in ("usr/bin", "usr/sbin"):
        for entry in os.scandir(root_path / bindir):
            script = directory / entry.name
            if script.exists():
                continue
            script.write_text(f'#!/bin/sh\nexec {qemu} {" ".join(trace)} -L {root_path} -0 {entry.name} '
                              f'{root_path}/{bindir}/{entry.name} "$@"\n')
            script.chmod(0o755)
    return directory.resolve()


_EXECVE = re.compile(rb'execve(?:at)?\((?:[^,"]*,)?"([^"]*)"')


def run_qemu(root_path: Path, argv: list[str], cwd: Path, *, stdin: bytes = b"", env=None,
             timeout=300) -> Outcome:
    """argv[0] is a program name in ROOT's /usr/bin (or a path inside ROOT)."""
    qemu = require(harness.QEMU)
    env = dict(env or ENV)
    program = argv[0] if argv[0].startswith("/") else f"/usr/bin/{argv[0]}"
    with tempfile.TemporaryDirectory(prefix="ncpu-qemu-") as work:
        logs = Path(work) / "logs"
        logs.mkdir()
        trace = ["-d", "strace", "-D", str(logs / "%d.log")]
        wrappers = _wrappers(Path(work) / "path", qemu, trace, root_path)
        env["PATH"] = str(wrappers)
        proc = subprocess.run([qemu, *trace, "-L", str(root_path), "-0", argv[0], f"{root_path}{program}",
                               *argv[1:]], cwd=cwd, input=stdin, capture_output=True, env=env, timeout=timeout)
        escaped = set()
        for log in logs.iterdir():
            for match in _EXECVE.finditer(log.read_bytes()):
                path = match.group(1).decode(errors="replace")
                ours = (str(wrappers), str(harness.CACHE.resolve() / "qemu-gcc-tools"), "/proc/self/")
                if (path.startswith("/") and not path.startswith(ours)
                        and not os.path.lexists(f"{root_path}{path}") and os.path.exists(path)):
                    escaped.add(path)
    if escaped:
        raise ReferenceEscaped(f"qemu's guest executed host program(s) {sorted(escaped)}: not a reference")
    err = b"".join(l for l in proc.stderr.splitlines(True) if not l.startswith(b"qemu: uncaught target signal"))
    return Outcome(proc.stdout, err, 128 - proc.returncode if proc.returncode < 0 else proc.returncode)


def run_ncpu(root_path: Path, argv: list[str], cwd: Path, *, stdin: bytes = b"", env=None,
             max_steps=20_000_000_000) -> Outcome:
    from ncpu.arm64.linux import Machine
    program = argv[0] if argv[0].startswith("/") else f"/usr/bin/{argv[0]}"
    guest_cwd = "/" + str(cwd.relative_to(root_path))
    with tempfile.TemporaryFile() as fin, tempfile.TemporaryFile() as fout, tempfile.TemporaryFile() as ferr:
        fin.write(stdin)
        fin.seek(0)
        machine = Machine(root=str(root_path), max_steps=max_steps, cwd=guest_cwd,
                          stdio=(fin.fileno(), fout.fileno(), ferr.fileno()))
        from ncpu.arm64.linux.fs import FileSystem
        host = FileSystem(str(root_path)).resolve(program, "/").host_path     # links resolved inside the root
        result = machine.run(host, list(argv), env=env or ENV)
        fout.seek(0)
        ferr.seek(0)
        return Outcome(fout.read(), ferr.read(), result.status, result.instructions, tuple(result.messages))



GCC_LIB = "/usr/lib/gcc/aarch64-linux-gnu/12"
MULTIARCH = "/usr/lib/aarch64-linux-gnu"
# What `gcc -O2 hello.c -o hello` runs (gcc -v shows it), one program at a time.  qemu-user cannot
# run gcc itself here: gcc executes cc1, as and collect2 by absolute path, and it looks for files
# under relative paths such as /usr/lib/gcc/../../aarch64-linux-gnu/lib, for which qemu's -L falls
# back to the host's cross toolchain.  Each stage under qemu, given plain paths inside ROOT, is a
# faithful reference.
GCC_STAGES = [
    [f"{GCC_LIB}/cc1", "-quiet", "-imultiarch", "aarch64-linux-gnu", "hello.c", "-quiet", "-dumpbase", "hello.c",
     "-dumpbase-ext", ".c", "-mlittle-endian", "-mabi=lp64", "-O2", "-fasynchronous-unwind-tables", "-o", "hello.s"],
    ["/usr/bin/as", "-EL", "-mabi=lp64", "-o", "hello.o", "hello.s"],
    ["/usr/bin/ld", "--build-id", "--eh-frame-hdr", "--hash-style=gnu", "--as-needed", "-dynamic-linker",
     "/lib/ld-linux-aarch64.so.1", "-X", "-EL", "-maarch64linux", "--fix-cortex-a53-843419", "-pie", "-o", "hello",
     f"{MULTIARCH}/Scrt1.o", f"{MULTIARCH}/crti.o", f"{GCC_LIB}/crtbeginS.o", f"-L{GCC_LIB}", f"-L{MULTIARCH}",
     "hello.o", "-lgcc", "--push-state", "--as-needed", "-lgcc_s", "--pop-state", "-lc", "-lgcc", "--push-state",
     "--as-needed", "-lgcc_s", "--pop-state", f"{GCC_LIB}/crtendS.o", f"{MULTIARCH}/crtn.o"],
]


def hide_host_toolchain(root_path: Path) -> None:
    """ld also searches /usr/aarch64-linux-gnu/lib: absent from ROOT, qemu's -L would fall back to the
    host's (a cross toolchain's libc); an empty one in ROOT gives both machines the same nothing."""
    for sub in ("include", "lib"):
        (root_path / "usr" / "aarch64-linux-gnu" / sub).mkdir(parents=True, exist_ok=True)
