"""What a static ELF tells about its addresses: function symbols and DWARF line tables (pyelftools)."""

from __future__ import annotations

import bisect
import os
from dataclasses import dataclass, field

import numpy as np
from elftools.elf.elffile import ELFFile


@dataclass
class Program:
    path: str
    starts: np.ndarray                     # sorted function start addresses (int64)
    ends: np.ndarray                       # ... and their ends (start + size, at least start + 4)
    names: list[str]
    lines: dict[int, tuple[str, int]] = field(default_factory=dict)   # address -> (file, line), is_stmt rows
    by_name: dict[str, int] = field(default_factory=dict)
    aliases: dict[str, int] = field(default_factory=dict)           # every function symbol -> address

    @classmethod
    def load(cls, path: str) -> "Program":
        with open(path, "rb") as f:
            elf = ELFFile(f)
            funcs: dict[int, tuple[str, int]] = {}
            aliases: dict[str, int] = {}
            table = elf.get_section_by_name(".symtab")
            for s in (table.iter_symbols() if table is not None else ()):
                if s["st_info"]["type"] == "STT_FUNC" and s.name and s["st_value"]:
                    addr, size = s["st_value"], s["st_size"]
                    aliases.setdefault(s.name, addr)
                    # of aliases at one address keep the name without leading underscores
                    if addr not in funcs or (funcs[addr][0].startswith("_") and not s.name.startswith("_")):
                        funcs[addr] = (s.name, max(size, funcs.get(addr, ("", 0))[1]))
            lines = _line_table(elf) if elf.has_dwarf_info() else {}
        order = sorted(funcs)
        starts = np.array(order, np.int64)
        ends = np.array([a + max(funcs[a][1], 4) for a in order], np.int64)
        names = [funcs[a][0] for a in order]
        return cls(path, starts, ends, names, lines, {n: k for k, n in enumerate(names)}, aliases)

    def function_index(self, pcs: np.ndarray) -> np.ndarray:
        """Index into names of the function holding each pc, -1 where none does."""
        k = np.searchsorted(self.starts, pcs, side="right") - 1
        inside = (k >= 0) & (pcs < self.ends[np.maximum(k, 0)])
        return np.where(inside, k, -1)

    def name_of(self, index: int) -> str:
        return self.names[index] if index >= 0 else "??"

    def where(self, pc: int) -> str:
        """symbol+offset, as gdb prints it."""
        k = bisect.bisect_right(self.starts, pc) - 1
        if k < 0 or pc >= self.ends[k]:
            return f"{pc:#x}"
        off = pc - int(self.starts[k])
        return f"{self.names[k]}+{off}" if off else self.names[k]

    def function(self, name: str) -> tuple[int, int]:
        """(start, end) of the function called name; KeyError if there is none."""
        k = self.by_name[name]
        return int(self.starts[k]), int(self.ends[k])

    def word_at(self, pc: int) -> int:
        """The instruction word at pc in the file's loadable segments (0 outside them)."""
        with open(self.path, "rb") as f:
            for seg in ELFFile(f).iter_segments():
                if seg["p_type"] == "PT_LOAD" and seg["p_vaddr"] <= pc < seg["p_vaddr"] + seg["p_filesz"] - 3:
                    f.seek(seg["p_offset"] + pc - seg["p_vaddr"])
                    return int.from_bytes(f.read(4), "little")
        return 0

    def line_of(self, pc: int) -> tuple[str, int] | None:
        """(file, line) of the nearest line-table row at or before pc within its function."""
        if not self.lines:
            return None
        addrs = self._line_addrs()
        k = bisect.bisect_right(addrs, pc) - 1
        if k < 0:
            return None
        f = bisect.bisect_right(self.starts, pc) - 1
        if f >= 0 and addrs[k] < self.starts[f]:
            return None
        return self.lines[addrs[k]]

    def _line_addrs(self) -> list[int]:
        if not hasattr(self, "_addrs"):
            self._addrs = sorted(self.lines)
        return self._addrs


def _line_table(elf) -> dict[int, tuple[str, int]]:
    """address -> (source file, line) for every is_stmt row of every compilation unit."""
    out: dict[int, tuple[str, int]] = {}
    dwarf = elf.get_dwarf_info()
    for cu in dwarf.iter_CUs():
        prog = dwarf.line_program_for_CU(cu)
        if prog is None:
            continue
        header = prog.header
        files = header["file_entry"]
        version = header["version"]
        for entry in prog.get_entries():
            state = entry.state
            if state is None or state.end_sequence or not state.is_stmt:
                continue
            index = state.file if version >= 5 else state.file - 1
            if not 0 <= index < len(files):
                continue
            name = files[index].name.decode(errors="replace")
            dir_index = files[index].dir_index
            dirs = header["include_directory"]
            if version < 5:
                dir_index -= 1
            # directory 0 (DWARF 5) is the compilation directory: names stay relative to it
            if not os.path.isabs(name) and 0 < dir_index + (version < 5) and dir_index < len(dirs):
                base = dirs[dir_index].decode(errors="replace")
                if base and base != ".":
                    name = os.path.join(base, name)
            out.setdefault(state.address, (name, state.line))
    return out
