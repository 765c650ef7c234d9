"""Futex wait queues: threads sleeping on a 32-bit word of guest memory.

A waiter is keyed by (address space, address); private and shared futexes
are the same here because memory is only ever shared between the threads
of one process (fork copies it).  Waiters are woken in the order they
started waiting, so a wake-up picks the same thread on every run.

Waiting is cooperative with the scheduler: FUTEX_WAIT registers a Waiter
and raises WouldBlock; each retry of the call only looks at the waiter's
`woken` flag and its deadline (virtual monotonic ns), never at memory.
"""

from __future__ import annotations

from dataclasses import dataclass

MATCH_ANY = 0xFFFFFFFF


@dataclass(eq=False)
class Waiter:
    task: object              # the waiting Process (thread)
    mem: object               # its address space
    addr: int
    bitset: int = MATCH_ANY
    deadline: int | None = None   # monotonic ns; None waits forever
    woken: bool = False


class FutexTable:
    def __init__(self):
        self.waiters: list[Waiter] = []        # oldest first

    def wait(self, task, addr: int, bitset: int = MATCH_ANY, deadline: int | None = None) -> Waiter:
        waiter = Waiter(task, task.mem, addr, bitset, deadline)
        self.waiters.append(waiter)
        task.futex_waiter = waiter
        return waiter

    def wake(self, mem, addr: int, count: int, bitset: int = MATCH_ANY) -> int:
        """Wake up to `count` waiters on (mem, addr) whose bitset meets `bitset`."""
        woken = 0
        for waiter in list(self.waiters):
            if woken >= count:
                break
            if waiter.mem is mem and waiter.addr == addr and waiter.bitset & bitset:
                waiter.woken = True
                self.waiters.remove(waiter)
                woken += 1
        return woken

    def requeue(self, mem, addr: int, wake: int, addr2: int, move: int) -> int:
        """Wake `wake` waiters on addr, move up to `move` of the rest to addr2."""
        woken = self.wake(mem, addr, wake)
        moved = 0
        for waiter in self.waiters:
            if moved >= move:
                break
            if waiter.mem is mem and waiter.addr == addr:
                waiter.addr = addr2
                moved += 1
        return woken + moved

    def cancel(self, task) -> None:
        """The task stops waiting (signal, timeout, exit)."""
        waiter = task.futex_waiter
        task.futex_waiter = None
        if waiter is not None and waiter in self.waiters:
            self.waiters.remove(waiter)

    def next_deadline(self) -> int | None:
        deadlines = [w.deadline for w in self.waiters if w.deadline is not None and w.task.running]
        return min(deadlines) if deadlines else None
