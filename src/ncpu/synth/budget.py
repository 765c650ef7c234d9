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
