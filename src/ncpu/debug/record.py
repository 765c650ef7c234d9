"""Record and replay: the nondeterministic inputs of a run, kept so that it can happen again.

Everything the guest computes is a function of its inputs, so a log of the
inputs it consumed is enough to repeat a run exactly: the same output, the
same instruction count.  The inputs are bytes read from standard input and,
with --host-time, the host's clock and entropy (without it those are already
a function of the seed).  Signals need no log: every signal in the machine
is raised by the guest itself, at a point the instruction count fixes.

The log is one JSON object:
    {"format": "ncpu-record 1", "binary_sha256": ..., "argv": [...], "seed": S,
     "host_time": bool, "events": [["stdin", HEX] | ["stdin-stat", {...}] |
     ["stdin-isatty", bool] | ["realtime", NS] | ["monotonic", NS] | ["random", HEX], ...],
     "instructions": N, "status": S}
Events are consumed in order on replay; a replay that asks for an input the
log does not hold next raises ReplayDiverged.
"""

from __future__ import annotations

import hashlib
import json
from types import SimpleNamespace

from ncpu.arm64.linux.clock import Clock
from ncpu.arm64.linux.files import HostFile

FORMAT = "ncpu-record 1"


class ReplayDiverged(Exception):
    """The replayed run asked for an input the recording does not have next."""


class Log:
    def __init__(self, events: list | None = None):
        self.events = events if events is not None else []
        self.pos = 0

    def add(self, kind: str, value) -> None:
        self.events.append([kind, value])

    def take(self, kind: str):
        if self.pos >= len(self.events) or self.events[self.pos][0] != kind:
            got = self.events[self.pos][0] if self.pos < len(self.events) else "the end of the log"
            raise ReplayDiverged(f"replay asked for {kind} at event {self.pos}, the recording has {got}")
        value = self.events[self.pos][1]
        self.pos += 1
        return value


class RecordingClock(Clock):
    """A Clock whose host readings are logged (deterministic readings need no log)."""

    def __init__(self, log: Log, *, seed: int, host: bool):
        super().__init__(seed=seed, host=host)
        self.log = log

    def realtime_ns(self) -> int:
        value = super().realtime_ns()
        if self.host:
            self.log.add("realtime", value)
        return value

    def monotonic_ns(self) -> int:
        value = super().monotonic_ns()
        if self.host:
            self.log.add("monotonic", value)
        return value

    def random_bytes(self, n: int) -> bytes:
        value = super().random_bytes(n)
        if self.host:
            self.log.add("random", value.hex())
        return value


class ReplayClock(Clock):
    """Host readings come back from the log; sleeping does not wait."""

    def __init__(self, log: Log, *, seed: int, host: bool):
        super().__init__(seed=seed, host=host)
        self.log = log

    def realtime_ns(self) -> int:
        return self.log.take("realtime") if self.host else super().realtime_ns()

    def monotonic_ns(self) -> int:
        return self.log.take("monotonic") if self.host else super().monotonic_ns()

    def random_bytes(self, n: int) -> bytes:
        return bytes.fromhex(self.log.take("random")) if self.host else super().random_bytes(n)

    def sleep(self, ns: int) -> None:
        if not self.host:
            super().sleep(ns)


STAT_FIELDS = ("st_mode", "st_size", "st_ino", "st_dev", "st_rdev", "st_uid", "st_gid", "st_nlink",
               "st_blksize", "st_blocks", "st_atime_ns", "st_mtime_ns", "st_ctime_ns")


class RecordingStdin(HostFile):
    """The host's standard input, with every chunk the guest read logged, and
    what it learnt about the input (fstat, isatty: glibc sizes its buffers by them)."""

    def __init__(self, inner: HostFile, log: Log):
        self.__dict__.update(inner.__dict__)
        self.log = log

    def read(self, n: int) -> bytes:
        data = super().read(n)
        self.log.add("stdin", data.hex())
        return data

    def stat(self):
        st = super().stat()
        self.log.add("stdin-stat", {name: getattr(st, name, 0) for name in STAT_FIELDS})
        return st

    def isatty(self) -> bool:
        answer = super().isatty()
        self.log.add("stdin-isatty", answer)
        return answer


class ReplayStdin(HostFile):
    """Standard input served from the log (the host's is not read)."""

    def __init__(self, inner: HostFile, log: Log):
        self.__dict__.update(inner.__dict__)
        self.log = log

    def read(self, n: int) -> bytes:
        data = bytes.fromhex(self.log.take("stdin"))
        if len(data) > n:
            raise ReplayDiverged(f"replay read of {n} bytes, the recording returned {len(data)}")
        return data

    def stat(self):
        return SimpleNamespace(**self.log.take("stdin-stat"))

    def isatty(self) -> bool:
        return self.log.take("stdin-isatty")


class Tape:
    """Standard input read so far in a debugged run, shared by all its snapshots
    (Target keeps it out of their deep copies), so that re-executing the past
    reads the same bytes again instead of new ones from the host."""

    def __init__(self):
        self.chunks: list[bytes] = []


class TapeStdin(HostFile):
    """The host's standard input, read once: the n-th read of any re-execution
    returns the n-th chunk the first execution read."""

    def __init__(self, inner: HostFile, tape: Tape):
        self.__dict__.update(inner.__dict__)
        self.tape = tape
        self.reads = 0                       # copied with each snapshot

    def read(self, n: int) -> bytes:
        if self.reads < len(self.tape.chunks):
            data = self.tape.chunks[self.reads][:n]
        else:
            data = super().read(n)
            self.tape.chunks.append(data)
        self.reads += 1
        return data


class TapeClock(Clock):
    """With host time under a debugger: each host reading is taken once and kept,
    so that re-executing the past reads the same clock and entropy again."""

    def __init__(self, tape: Tape, *, seed: int, host: bool):
        super().__init__(seed=seed, host=host)
        self.tape = tape
        self.reads = 0                       # copied with each snapshot

    def _once(self, read):
        if self.reads < len(self.tape.chunks):
            value = self.tape.chunks[self.reads]
        else:
            value = read()
            self.tape.chunks.append(value)
        self.reads += 1
        return value

    def realtime_ns(self) -> int:
        return self._once(super().realtime_ns) if self.host else super().realtime_ns()

    def monotonic_ns(self) -> int:
        return self._once(super().monotonic_ns) if self.host else super().monotonic_ns()

    def random_bytes(self, n: int) -> bytes:
        return self._once(lambda: super(TapeClock, self).random_bytes(n)) if self.host else super().random_bytes(n)

    def sleep(self, ns: int) -> None:
        if self.reads >= len(self.tape.chunks):  # re-executed sleeps do not wait again
            super().sleep(ns)


def sha256_of(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def prepare(kernel, log: Log, replay: bool) -> None:
    """Put the logging (or replaying) standard input in the first process."""
    fds = kernel.init.fds.files
    stdin = fds.get(0)
    if isinstance(stdin, HostFile):
        fds[0] = (ReplayStdin if replay else RecordingStdin)(stdin, log)


def prepare_tape(kernel, tape: Tape) -> None:
    fds = kernel.init.fds.files
    if isinstance(fds.get(0), HostFile):
        fds[0] = TapeStdin(fds[0], tape)


def clock_for(log: Log, *, seed: int, host: bool, replay: bool) -> Clock:
    return (ReplayClock if replay else RecordingClock)(log, seed=seed, host=host)


def save(path: str, *, binary: str, argv: list[str], seed: int, host_time: bool, log: Log,
         instructions: int, status: int) -> None:
    document = {"format": FORMAT, "binary_sha256": sha256_of(binary), "argv": list(argv), "seed": seed,
                "host_time": host_time, "events": log.events, "instructions": instructions, "status": status}
    with open(path, "w") as f:
        json.dump(document, f)
        f.write("\n")


def load(path: str) -> dict:
    """The recording; ValueError if it is not one."""
    with open(path) as f:
        document = json.load(f)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"{path}: not an ncpu recording")
    return document
