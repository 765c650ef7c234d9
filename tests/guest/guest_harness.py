"""Building ncc and compiling C with it, for the guest software tests.

gcc's reference builds use -O1 -fwrapv (signed overflow wraps, as it does in ncc),
and `-static`; every binary runs under qemu-aarch64 or our machine.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "arm64" / "linux"))

import arm64linux_harness as harness  # noqa: E402

REPO = harness.REPO
CACHE = REPO / ".cache" / "guest"
GUEST = REPO / "guest"
NCC_SRC = GUEST / "ncc" / "ncc.c"
LIBDIR = GUEST / "ncc" / "lib"
CORPUS = Path(__file__).resolve().parent / "corpus"


def _digest(*paths: Path, extra: str = "") -> str:
    h = hashlib.sha256(extra.encode())
    for path in paths:
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def guest_sources() -> list[Path]:
    return sorted(p for p in GUEST.rglob("*") if p.is_file()) + [REPO / "scripts" / "build_guest.sh"]


def build_tree() -> Path:
    """scripts/build_guest.sh into .cache/guest/tree-HASH, once per version of the sources."""
    harness.require(harness.GCC)
    tree = CACHE / f"tree-{_digest(*guest_sources())}"
    if not (tree / ".done").exists():
        tmp = CACHE / f"tree-tmp{os.getpid()}"
        if tmp.exists():
            shutil.rmtree(tmp)
        subprocess.run(["bash", str(REPO / "scripts" / "build_guest.sh"), str(tmp)], check=True)
        (tmp / ".done").write_text("")
        try:
            os.rename(tmp, tree)
        except OSError:  # built meanwhile by another process, or a half-built tree from a crash
            if not (tree / ".done").exists():
                shutil.rmtree(tree, ignore_errors=True)
                os.rename(tmp, tree)
            else:
                shutil.rmtree(tmp)
    return tree


def gcc_build(src: Path, opt: str = "-O1") -> Path:
    """The reference binary: aarch64-linux-gnu-gcc -static OPT -fwrapv."""
    harness.require(harness.GCC)
    out = CACHE / "gcc" / f"{src.stem}-{_digest(src, extra=opt)}"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(f".tmp{os.getpid()}")
        subprocess.run([harness.GCC, "-static", opt, "-fwrapv", "-w", "-o", str(tmp), str(src)], check=True)
        os.replace(tmp, out)
    return out


def ncc_qemu(ncc: Path, src: Path, out: Path, *, libdir: Path = LIBDIR, timeout=120) -> subprocess.CompletedProcess:
    """Compile `src` with the AArch64 `ncc` binary under qemu-aarch64."""
    harness.require(harness.QEMU)
    return subprocess.run([harness.QEMU, str(ncc), "-L", str(libdir), "-o", str(out), str(src)],
                          capture_output=True, timeout=timeout)


def run_qemu(binary: Path, args=(), stdin: bytes = b"", cwd=None) -> harness.Outcome:
    return harness.run_qemu(binary, [binary.name, *args], cwd or binary.parent, stdin=stdin)


def corpus() -> list[Path]:
    """The hand-written programs of corpus/ and the ones gen_corpus.py writes (into the cache,
    once per version of the generator)."""
    import gen_corpus

    generator = Path(gen_corpus.__file__)
    generated = CACHE / f"corpus-{_digest(generator)}"
    if not generated.is_dir():
        tmp = CACHE / f"corpus-tmp{os.getpid()}"
        gen_corpus.write(tmp)
        try:
            tmp.rename(generated)
        except OSError:             # another process (xdist) made it first
            shutil.rmtree(tmp, ignore_errors=True)
    return sorted(CORPUS.glob("*.c")) + sorted(generated.glob("*.c"))
