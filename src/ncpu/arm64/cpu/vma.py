"""Mappings (VMAs) of a guest address space, and the host files behind them.

A Vma is what mmap/brk/the loader asked for: a page-aligned range, its
guest-visible protection, private or shared, and for a file mapping the
file and the file offset of `start`.  Frames are not part of it: they are
allocated on first touch (memory.Memory.resolve).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace


class MappedFile:
    """A host file kept open for its mappings (Linux keeps the file of a
    mapping open after the descriptor is closed).  Holds a duplicate of the
    host descriptor, closed when the last mapping that uses it goes away."""

    def __init__(self, fd: int, guest_path: str = ""):
        st = os.fstat(fd)
        self.fd = os.dup(fd)
        self.dev, self.ino = st.st_dev, st.st_ino
        self.guest_path = guest_path

    @property
    def key(self) -> tuple[int, int]:
        return self.dev, self.ino

    def read_page(self, offset: int) -> bytes:
        try:
            return os.pread(self.fd, 4096, offset)
        except OSError:
            return b""

    def write_back(self, offset: int, data: bytes) -> None:
        """Write a page back, never past the file's end (as Linux: a mapping
        does not extend its file)."""
        try:
            size = os.fstat(self.fd).st_size
            n = min(len(data), size - offset)
            if n > 0:
                os.pwrite(self.fd, data[:n], offset)
        except OSError:
            pass                    # the host file went away or is read-only: Linux would drop it too

    def __del__(self):
        try:
            os.close(self.fd)
        except (OSError, AttributeError, TypeError):
            pass


@dataclass
class Vma:
    start: int
    end: int
    prot: int                       # PROT_* as the guest set it
    shared: bool = False            # MAP_SHARED
    file: MappedFile | None = None
    offset: int = 0                 # file offset of `start`
    name: str = ""                  # [heap], [stack] ... in /proc/self/maps

    def split(self, at: int) -> tuple["Vma", "Vma"]:
        low = replace(self, end=at)
        high = replace(self, start=at, offset=self.offset + (at - self.start) if self.file else 0)
        return low, high

    def file_offset(self, addr: int) -> int:
        return self.offset + (addr - self.start)

    def maps_line(self) -> str:
        """One line of /proc/self/maps, in Linux's format."""
        perms = ("r" if self.prot & 1 else "-") + ("w" if self.prot & 2 else "-") + \
                ("x" if self.prot & 4 else "-") + ("s" if self.shared else "p")
        if self.file is not None:
            dev = f"{os.major(self.file.dev):02x}:{os.minor(self.file.dev):02x}"
            head = f"{self.start:08x}-{self.end:08x} {perms} {self.offset:08x} {dev} {self.file.ino} "
            return head.ljust(73) + self.file.guest_path
        head = f"{self.start:08x}-{self.end:08x} {perms} 00000000 00:00 0 "
        return head.ljust(73) + self.name if self.name else head
