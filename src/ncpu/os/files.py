"""What a file descriptor can name: the console, a pipe end, an open file.

The file system is a dict of name -> bytes in memory (`FileSystem`). Pipes
are unbounded byte queues: a write never blocks; a read of an empty pipe
blocks while a write end is open and returns 0 (end of input) once none is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

BLOCK = None  # what `read` returns when the caller must wait


@dataclass
class Pipe:
    data: bytearray = field(default_factory=bytearray)
    readers: int = 0
    writers: int = 0


@dataclass
class PipeEnd:
    pipe: Pipe
    writing: bool

    def opened(self) -> None:
        if self.writing:
            self.pipe.writers += 1
        else:
            self.pipe.readers += 1

    def closed(self) -> None:
        if self.writing:
            self.pipe.writers -= 1
        else:
            self.pipe.readers -= 1

    def read(self, count: int):
        if self.writing:
            return -1
        if not self.pipe.data:
            return BLOCK if self.pipe.writers else b""
        data = bytes(self.pipe.data[:count])
        del self.pipe.data[:count]
        return data

    def write(self, data: bytes) -> int:
        if not self.writing:
            return -1
        self.pipe.data.extend(data)
        return len(data)


@dataclass
class FileSystem:
    """A flat in-memory file system: name -> contents."""

    files: dict[str, bytearray] = field(default_factory=dict)


@dataclass
class OpenFile:
    fs: FileSystem
    name: str
    writing: bool
    position: int = 0

    def opened(self) -> None:
        pass

    def closed(self) -> None:
        pass

    def read(self, count: int):
        if self.writing:
            return -1
        data = bytes(self.fs.files[self.name][self.position:self.position + count])
        self.position += len(data)
        return data

    def write(self, data: bytes) -> int:
        if not self.writing:
            return -1
        self.fs.files[self.name].extend(data)
        return len(data)


@dataclass
class ConsoleIn:
    """fd 0: the workload's input, shared by every process that reads it."""

    source: bytearray

    def opened(self) -> None:
        pass

    def closed(self) -> None:
        pass

    def read(self, count: int):
        data = bytes(self.source[:count])
        del self.source[:count]
        return data

    def write(self, data: bytes) -> int:
        return -1


@dataclass
class ConsoleOut:
    """fd 1 and 2: kept per process (so results do not depend on how the
    scheduler interleaves processes) and in the order written overall."""

    sink: bytearray
    log: bytearray

    def opened(self) -> None:
        pass

    def closed(self) -> None:
        pass

    def read(self, count: int):
        return -1

    def write(self, data: bytes) -> int:
        self.sink.extend(data)
        self.log.extend(data)
        return len(data)
