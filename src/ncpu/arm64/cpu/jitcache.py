"""Keep numba's on-disk cache (cache=True) consistent across source edits.

Numba checks only the timestamp of the file that defines a function, but
our compiled loop inlines code and op-id constants from sibling modules.
So we stamp the cache with a hash of every source file of this package
and drop all cached machine code when the hash changes.
"""
import hashlib
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
# modules the compiled code never sees: editing them must not drop the cache
_PURE_PYTHON = {"__init__.py", "cpu.py", "disasm.py", "disasm_sat.py", "jitcache.py"}


def ensure_fresh() -> None:
    h = hashlib.sha256()
    for p in sorted(HERE.glob("*.py")):
        if p.name in _PURE_PYTHON:
            continue
        h.update(p.name.encode())
        h.update(p.read_bytes())
    digest = h.hexdigest()
    cache = HERE / "__pycache__"
    stamp = cache / "ncpu_jit.stamp"
    try:
        if stamp.read_text() == digest:
            return
    except OSError:
        pass
    try:
        cache.mkdir(exist_ok=True)
        for f in cache.iterdir():
            if f.suffix in (".nbi", ".nbc"):
                f.unlink(missing_ok=True)
        tmp = cache / f"ncpu_jit.stamp.{os.getpid()}"
        tmp.write_text(digest)
        tmp.replace(stamp)
    except OSError:
        pass    # read-only install: numba falls back to compiling in memory
