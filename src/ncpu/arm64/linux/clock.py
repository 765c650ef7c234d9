"""Time and randomness as the guest sees them.

Deterministic by default: wall time is a fixed epoch plus 16 ns per guest
instruction (one tick of the 62.5 MHz counter the CPU reports), plus whatever
the guest slept; random bytes come from a generator seeded with `seed`.  With
host=True both come from the host instead.
"""

from __future__ import annotations

import os
import random
import time

EPOCH_NS = 1_704_067_200 * 10**9     # 2024-01-01T00:00:00Z
# Linux's ktime saturates at KTIME_MAX (2^63-1 ns, about 292 years): a guest
# that sleeps "for ever" (nanosleep of INT64_MAX seconds) ends there, so every
# time stays representable in a timespec.
KTIME_MAX = (1 << 63) - 1
NS_PER_INSTRUCTION = 16       # 62.5 MHz, the CNTFRQ_EL0 our CPU reports


class Clock:
    def __init__(self, *, seed: int = 0, host: bool = False):
        self.host = host
        self.instructions = 0          # total guest instructions so far (all processes)
        self.slept_ns = 0
        self._random = random.Random(seed)
        self._host_start = time.monotonic_ns()

    def realtime_ns(self) -> int:
        if self.host:
            return time.time_ns()
        return EPOCH_NS + self.monotonic_ns()

    def monotonic_ns(self) -> int:
        if self.host:
            return time.monotonic_ns() - self._host_start
        return self.instructions * NS_PER_INSTRUCTION + self.slept_ns

    def cpu_ns(self, instructions: int) -> int:
        """CPU time of a process that ran `instructions`."""
        return instructions * NS_PER_INSTRUCTION

    def sleep(self, ns: int) -> None:
        """The guest sleeps: virtual time jumps forward (the host only waits with host time)."""
        if ns <= 0:
            return
        if self.host:
            time.sleep(min(ns, KTIME_MAX) / 1e9 if ns < 1 << 60 else 1 << 30)   # "for ever", without OverflowError
        else:
            self.slept_ns = min(self.slept_ns + ns, KTIME_MAX - EPOCH_NS - self.monotonic_ns() + self.slept_ns)

    def random_bytes(self, n: int) -> bytes:
        if self.host:
            return os.urandom(n)
        return self._random.randbytes(n)
