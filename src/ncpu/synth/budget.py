"""A deadline that can also be cancelled from another process.

Every search checks `time.monotonic() > deadline` in its loops. Passing a
`Budget` instead of a float makes that same test also true once the
portfolio has moved on (another family won, or the job was replaced), so a
long-lived worker process can drop a search without the searches knowing
about processes: Python evaluates `now > budget` as `budget.__lt__(now)`.
"""

from __future__ import annotations

import time

# How often (seconds of the clock the search passes in) the cancel flag is
# read. It lives in shared memory behind a lock: cheap, but not free for a
# loop that tests its deadline a million times a second. Counting calls
# instead (every 64th) left a search whose tests are seconds apart (one
# enumeration chunk each, on a loaded machine) running a cancelled problem
# for tens of seconds while the next problem waited for its core.
CANCEL_POLL_SECONDS = 0.005


class Budget:
    def __init__(self, deadline: float, cancelled=None):
        self.deadline = deadline
        self.cancelled = cancelled or (lambda: False)
        self._next_poll = 0.0

    def expired(self) -> bool:
        return time.monotonic() > self.deadline or self.cancelled()

    def __lt__(self, now: float) -> bool:  # `now > budget`
        if now > self.deadline:
            return True
        if now < self._next_poll:
            return False
        self._next_poll = now + CANCEL_POLL_SECONDS
        return self.cancelled()

    def __gt__(self, now: float) -> bool:  # `now < budget`
        return not self.__lt__(now)

    def __sub__(self, now: float) -> float:
        return self.deadline - now


class CpuBudget:
    """A share of an outer deadline (float or Budget) that also ends once
    this process has used `cpu_seconds` of CPU time, and at `wall_until`.
    For a phase whose budget is work, not time: on a loaded machine a wall
    budget converted by the share of a core measured so far came out too
    short when the share fell later (P20's promoted phase got a fraction of
    its CPU second inside a four-way race and never finished)."""

    def __init__(self, outer, cpu_seconds: float, wall_until: float):
        self.outer = outer
        self.cpu_limit = time.process_time() + cpu_seconds
        self.wall_until = wall_until

    def __lt__(self, now: float) -> bool:  # `now > budget`
        return now > self.wall_until or now > self.outer or time.process_time() > self.cpu_limit

    def __gt__(self, now: float) -> bool:  # `now < budget`
        return not self.__lt__(now)

    def __sub__(self, now: float) -> float:
        return min(self.wall_until, self.outer.deadline if isinstance(self.outer, Budget) else self.outer) - now
