"""The one user cache directory of nCPU: `$NCPU_CACHE_DIR`, else `$XDG_CACHE_HOME/ncpu`, else `~/.cache/ncpu`."""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path


def user_cache_dir(part: str) -> Path:
    """Directory for one kind of cached data (it may not exist yet)."""
    if os.environ.get("NCPU_CACHE_DIR"):
        return Path(os.environ["NCPU_CACHE_DIR"]) / part
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ncpu" / part


def write_whole(path: Path, data: bytes) -> bool:
    """Write a cache file whole or not at all (another process may read it meanwhile); a
    failure (False) only costs the next process the work again."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
        return True
    except OSError:
        with contextlib.suppress(OSError):        # (a parent that is a file: nothing to remove)
            tmp.unlink()
        return False


def write_checked(path: Path, magic: bytes, data: bytes) -> bool:
    """write_whole of `data` framed by `magic` and its digest, for read_checked."""
    return write_whole(path, magic + hashlib.sha256(data).digest() + data)


def read_checked(path: Path, magic: bytes) -> bytes | None:
    """What write_checked wrote to `path`, or None: absent, unreadable, or not exactly what was
    written (code handed to LLVM must be whole: it crashes the process on a damaged file)."""
    try:
        framed = path.read_bytes()
    except OSError:
        return None
    if not framed.startswith(magic):
        return None
    digest, data = framed[len(magic):len(magic) + 32], framed[len(magic) + 32:]
    return data if hashlib.sha256(data).digest() == digest else None
