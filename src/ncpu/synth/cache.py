"""Persistent memo of solved specifications, keyed by `Spec.canonical_key`.

Stored as one small JSON file per key under `$NCPU_CACHE_DIR/synth`, else
`$XDG_CACHE_HOME/ncpu/synth`, else `~/.cache/ncpu/synth`. Writes go through
a temporary file and a rename, so a crash never leaves half an entry.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from ncpu.cachedir import user_cache_dir


def cache_dir() -> Path:
    return user_cache_dir("synth")


def lookup(key: str) -> dict | None:
    try:
        return json.loads((cache_dir() / f"{key}.json").read_text())
    except (OSError, ValueError):
        return None


def store(key: str, entry: dict) -> None:
    directory = cache_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=directory, suffix=".tmp")
        with os.fdopen(fd, "w") as handle:
            json.dump(entry, handle)
        os.replace(temp, directory / f"{key}.json")
    except OSError:
        pass  # a cache that cannot be written only costs time
