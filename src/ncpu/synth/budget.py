"""A deadline that can also be cancelled from another process.

Every search checks `time.monotonic() > deadline` in its loops. Passing a
`Budget` instead of a float makes that same test also true once the
portfolio has moved on (another family won, or the job was replaced), so a
long-lived worker process can drop a search without the searches knowing
about processes: Python evaluates `now > budget` as `budget.__lt__(now)`.
"""

from __future__ import annotations

import time


class Budget:
    def __init__(self, deadline: float, cancelled=None):
        self.deadline = deadline
        self.cancelled = cancelled or (lambda: False)
        self._checks = 0

    def expired(self) -> bool:
        return time.monotonic() > self.deadline or self.cancelled()

    def __lt__(self, now: float) -> bool:  # `now > budget`
        if now > self.deadline:
            return True
        self._checks += 1
        # The cancel flag lives in shared memory: cheap, but not free.
        return self._checks % 64 == 0 and self.cancelled()

    def __gt__(self, now: float) -> bool:  # `now < budget`
        return not self.__lt__(now)

    def __sub__(self, now: float) -> float:
        return self.deadline - now
