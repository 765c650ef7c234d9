"""Persistent memo of solved specifications, keyed by `Spec.canonical_key`.

Stored as one small JSON file per key under `$NCPU_CACHE_DIR/synth`, else
`$XDG_CACHE_HOME/ncpu/synth`, else `~/.cache/ncpu/synth`. Writes go through
a temporary file and a rename, so a crash never leaves half an entry.

The cache is untrusted input: anyone who can write a file there chooses
what the next lookup reads. So an entry is data only, the program as nCPU
assembly (never Python: the Python text is regenerated from the decoded
words), every field is validated here, and anything unexpected is a miss.
The caller still re-verifies the program on the machine before using it.
The directory is created owner-only (0700).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ncpu.cachedir import user_cache_dir
from ncpu.isa import AssemblerError, assemble

FORMAT = 2                     # entries of an older format (with a "python" field) are misses
MAX_ENTRY_BYTES = 256 * 1024   # a solved program is a few hundred bytes; refuse to parse more
MAX_SOLVER_CHARS = 64
FIELDS = {"format": int, "asm": str, "solver": str, "seconds": float}


@dataclass(frozen=True)
class Entry:
    asm: str          # assembles (checked); still to be verified against the spec
    solver: str
    seconds: float


def cache_dir() -> Path:
    return user_cache_dir("synth")


def _path(key: str) -> Path | None:
    # The key is our own sha256 hex digest; anything else could name a path elsewhere.
    if len(key) != 64 or any(c not in "0123456789abcdef" for c in key):
        return None
    return cache_dir() / f"{key}.json"


def parse_entry(raw: bytes) -> Entry | None:
    """The entry in `raw`, or None for anything but a well-formed one."""
    if len(raw) > MAX_ENTRY_BYTES:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):   # malformed, not UTF-8, nested too deep, huge integer
        return None
    if not isinstance(data, dict) or set(data) != set(FIELDS):
        return None
    for name, kind in FIELDS.items():
        value = data[name]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = data[name] = float(value)
        if type(value) is not kind:
            return None
    if data["format"] != FORMAT or not 0.0 <= data["seconds"] < 1e9 or len(data["solver"]) > MAX_SOLVER_CHARS:
        return None
    try:
        assemble(data["asm"])        # unparseable text, unknown opcodes, immediates out of range
    except (AssemblerError, ValueError):
        return None
    return Entry(data["asm"], data["solver"], data["seconds"])


def lookup(key: str) -> Entry | None:
    path = _path(key)
    if path is None:
        return None
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_ENTRY_BYTES + 1)
    except OSError:
        return None
    return parse_entry(raw)


def store(key: str, asm: str, solver: str, seconds: float) -> None:
    path = _path(key)
    if path is None:
        return
    entry = {"format": FORMAT, "asm": asm, "solver": solver[:MAX_SOLVER_CHARS], "seconds": float(seconds)}
    directory = path.parent
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        if directory.stat().st_uid == os.getuid():
            directory.chmod(0o700)     # a directory made by an older version was world-readable
        fd, temp = tempfile.mkstemp(dir=directory, suffix=".tmp")
        with os.fdopen(fd, "w") as handle:
            json.dump(entry, handle)
        os.replace(temp, path)
    except OSError:
        pass  # a cache that cannot be written only costs time
