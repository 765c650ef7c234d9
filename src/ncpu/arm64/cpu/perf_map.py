"""Names for native code in Linux perf's profiles (opt in: NCPU_PERF_MAP=1).

perf cannot name code that a JIT wrote: its samples show as bare addresses. For such code it
reads /tmp/perf-PID.map, one line `START SIZE NAME` (hexadecimal) per function. With
NCPU_PERF_MAP set, every page function native.py loads (compiled or from the cache) is added
there, its size read from the object file's symbol table, so that `perf record` and
`perf report --sort sym` name the samples in each page's code (`ncpu_page_<key>`); most of
what stays unnamed is the loop and numba's other functions.  This is how docs/arm64.md
("Native code left less often") found where arm64_bench's time went.
"""
from __future__ import annotations

import io
import os
from pathlib import Path

from ...settings import OFF


def enabled() -> bool:
    """NCPU_PERF_MAP set to something other than empty or off (settings.OFF): an opt-in."""
    return os.environ.get("NCPU_PERF_MAP", "").strip().lower() not in ("", *OFF)


def path() -> Path:
    return Path(f"/tmp/perf-{os.getpid()}.map")


def add(data: bytes, name: str, address: int) -> None:
    """Name the function `name` of object file `data`, loaded at `address` (a map that cannot
    be written is left alone: profiling is not worth a failed run)."""
    from elftools.elf.elffile import ELFFile

    symbols = ELFFile(io.BytesIO(data)).get_section_by_name(".symtab")
    size = next((s["st_size"] for s in symbols.iter_symbols() if s.name == name), 0) if symbols else 0
    try:
        with open(path(), "a") as out:
            out.write(f"{address:x} {size:x} {name}\n")
    except OSError:
        pass
