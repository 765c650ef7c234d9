"""System call numbers of the `SYS` instruction: the one table.

`SYS` reads the call number from R0 and its arguments from R1..R3, and
returns its result in R0 (setting Z and N from it, as every register write
does). Buffers are word addresses in data memory holding one byte per word
(the word's low 8 bits). A call a servicer does not provide returns -1.

The bare-machine runner (`ncpu.machine.traps`, used by `ncpu run`) provides
EXIT, WRITE and READ; neurOS (`ncpu.os`) provides them all.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Syscall:
    number: int
    name: str
    arguments: str  # R1..R3, as documented
    result: str  # R0 after the call


# fmt: off
SYSCALLS: tuple[Syscall, ...] = (
    Syscall(0,  "exit",   "R1 = status", "does not return: the process (or machine) halts with that status"),
    Syscall(1,  "write",  "R1 = fd, R2 = buffer address, R3 = count", "count written, -1 on a bad fd or count"),
    Syscall(2,  "read",   "R1 = fd, R2 = buffer address, R3 = count",
            "words read (0 at end of input), -1 on a bad fd or count; a read of an empty pipe blocks"),
    Syscall(3,  "sleep",  "R1 = ticks", "0, after at least R1 timer ticks (a tick is one time slice)"),
    Syscall(4,  "fork",   "-", "the child's pid in the parent, 0 in the child (a copy of the address space)"),
    Syscall(5,  "wait",   "R1 = pid (-1: any child), R2 = status address (-1: none)",
            "the reaped child's pid, its exit status stored at R2; -1 when there is no such child"),
    Syscall(6,  "getpid", "-", "the caller's pid"),
    Syscall(7,  "pipe",   "R1 = address of two words", "0; word R1 = the read fd, word R1+1 = the write fd"),
    Syscall(8,  "open",   "R1 = name address (one byte a word, 0-terminated), R2 = mode: 0 read, 1 write, 2 append",
            "a fd, -1 when a file to read does not exist"),
    Syscall(9,  "close",  "R1 = fd", "0, -1 on a bad fd"),
    Syscall(10, "spawn",  "R1 = program index (in the workload's list)", "the new process's pid, -1 on a bad index"),
)
# fmt: on

BY_NAME: dict[str, Syscall] = {call.name: call for call in SYSCALLS}
BY_NUMBER: dict[int, Syscall] = {call.number: call for call in SYSCALLS}
EXIT, WRITE, READ, SLEEP, FORK, WAIT, GETPID, PIPE, OPEN, CLOSE, SPAWN = (call.number for call in SYSCALLS)
STDIN, STDOUT, STDERR = 0, 1, 2
