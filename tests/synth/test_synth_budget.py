"""Deadlines the searches test: `Budget` (cancellable from another
process) and `CpuBudget` (a phase's budget in CPU seconds)."""

import time

from ncpu.synth.budget import CANCEL_POLL_SECONDS, Budget, CpuBudget


class Flag:
    def __init__(self):
        self.up, self.reads = False, 0

    def __call__(self):
        self.reads += 1
        return self.up


def test_a_cancel_is_seen_within_one_poll_interval_however_rarely_the_search_tests():
    """A search that tests its deadline once per second of work must still
    stop at its next test after a cancel (not at its 64th)."""
    flag = Flag()
    budget = Budget(1e9, flag)
    t = 1000.0
    assert not t > budget
    flag.up = True
    assert t + CANCEL_POLL_SECONDS * 2 > budget  # the very next test, a poll interval later


def test_the_flag_is_read_at_most_once_per_poll_interval():
    flag = Flag()
    budget = Budget(1e9, flag)
    t = 1000.0
    for i in range(1000):  # a tight loop: 1000 tests within one interval
        assert not t + i * CANCEL_POLL_SECONDS / 2000 > budget
    assert flag.reads == 1
    assert not t + CANCEL_POLL_SECONDS * 1.5 > budget
    assert flag.reads == 2


def test_budget_compares_like_the_deadline_it_stands_for():
    budget = Budget(100.0)
    assert 101.0 > budget and not 99.0 > budget
    assert 99.0 < budget and not 101.0 < budget
    assert budget - 90.0 == 10.0
    assert Budget(time.monotonic() - 1).expired()


def _spin(seconds: float) -> None:
    until = time.process_time() + seconds
    while time.process_time() < until:
        pass


def test_cpu_budget_ends_after_its_cpu_seconds_not_its_wall_time():
    now = time.monotonic()
    phase = CpuBudget(now + 1e6, 0.05, now + 1e6)
    assert not time.monotonic() > phase
    _spin(0.06)
    assert time.monotonic() > phase


def test_cpu_budget_ends_at_its_wall_limit_and_with_the_outer_budget():
    now = time.monotonic()
    assert now + 2 > CpuBudget(now + 10, 1e6, now + 1)  # its own wall limit
    assert now + 2 > CpuBudget(now + 1, 1e6, now + 10)  # the outer deadline
    flag = Flag()
    phase = CpuBudget(Budget(now + 10, flag), 1e6, now + 10)
    assert not now > phase
    flag.up = True
    assert now + 1 > phase  # the outer budget's cancel
    assert CpuBudget(Budget(now + 10), 1e6, now + 5) - now == 5
