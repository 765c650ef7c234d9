"""The bundled nsl example programs: source, arguments, expected output and status."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import ncpu.nsl

EXAMPLES = Path(ncpu.nsl.__file__).parent / "examples"


@dataclass(frozen=True)
class Example:
    name: str
    source: str
    args: tuple[int, ...]
    output: bytes
    status: int

    def __str__(self) -> str:
        return self.name


def load_examples() -> list[Example]:
    found = []
    for path in sorted(EXAMPLES.glob("*.nsl")):
        source = path.read_text()
        args = re.search(r"//\s*@args\s+(.*)", source)
        status = re.search(r"//\s*@status\s+(-?\d+)", source)
        found.append(Example(path.stem, source, tuple(int(a) for a in args.group(1).split()) if args else (),
                             path.with_suffix(".out").read_bytes(), int(status.group(1)) if status else 0))
    return found
