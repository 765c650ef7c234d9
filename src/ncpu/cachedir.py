"""The one user cache directory of nCPU: `$NCPU_CACHE_DIR`, else `$XDG_CACHE_HOME/ncpu`, else `~/.cache/ncpu`."""

from __future__ import annotations

import os
from pathlib import Path


def user_cache_dir(part: str) -> Path:
    """Directory for one kind of cached data (it may not exist yet)."""
    if os.environ.get("NCPU_CACHE_DIR"):
        return Path(os.environ["NCPU_CACHE_DIR"]) / part
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ncpu" / part
