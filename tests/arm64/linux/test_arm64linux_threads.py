"""POSIX threads (static glibc, -pthread): output identical to qemu-aarch64, deterministic runs,
deadlock detection, and the futex wait/wake rules on their own."""

from __future__ import annotations

import errno
import struct
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest

import arm64linux_harness as harness
from ncpu.arm64.linux import scheduler
from ncpu.arm64.linux.clock import NS_PER_INSTRUCTION, Clock
from ncpu.arm64.linux.errors import SyscallError, WouldBlock
from ncpu.arm64.linux.futex import FutexTable
from ncpu.arm64.linux.syscalls.futex import sys_futex

PTHREAD = ("-pthread",)
# name -> expected exit status (also checked against qemu)
PROGRAMS = {"threads_counter": 0, "threads_condvar": 0, "threads_tls": 0, "threads_sem": 0, "threads_signal": 0,
            "threads_exit": 3}


def _qemu_reference(binary, root, attempts: int = 3):
    """qemu-aarch64's run of `binary`.  qemu-user itself aborts now and then (SIGABRT, status
    134, after the guest's last line) when a thread calls exit while others still run
    (threads_exit; seen in CI runs of several sessions): that is the oracle crashing, not an
    answer (no program here exits 134), so it is asked again."""
    for _ in range(attempts):
        ref = harness.run_qemu(binary, ["prog"], root)
        if ref.status != 134:
            break
    return ref


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_matches_qemu(name, opt, tools, tmp_path):
    binary = harness.compile_c(name, opt, PTHREAD)
    root_q = harness.make_tree(tmp_path / "q")
    root_n = harness.make_tree(tmp_path / "n")
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(_qemu_reference, binary, root_q)
        ours = harness.run_ncpu(binary, ["prog"], root_n)
        ref = future.result()
    assert ours.stdout == ref.stdout
    assert ours.stderr == ref.stderr
    assert ours.status == ref.status == PROGRAMS[name]
    assert not ours.messages, ours.messages


def test_deterministic(tools, tmp_path):
    binary = harness.compile_c("threads_condvar", "-O2", PTHREAD)
    runs = [harness.run_ncpu(binary, ["prog"], harness.make_tree(tmp_path / str(i))) for i in range(2)]
    assert runs[0] == runs[1]                    # stdout, stderr, status, instruction count, messages
    assert runs[0].status == 0 and runs[0].instructions > 0


def test_a_thread_alone_takes_longer_turns_with_the_same_interleaving(tools, tmp_path, monkeypatch):
    """scheduler.ALONE_QUANTA: a thread alone on the machine runs many quanta in one turn, and
    when it starts another thread its turn ends where a QUANTUM-long one would have: the log the
    two threads then write without a lock (which records where every turn ended) and the
    instruction count are those of QUANTUM-long turns."""
    binary = harness.compile_c("sched_alone", "-O2", PTHREAD)
    runs = {}
    for quanta in (1, scheduler.ALONE_QUANTA):
        monkeypatch.setattr(scheduler, "ALONE_QUANTA", quanta)
        runs[quanta] = harness.run_ncpu(binary, ["prog"], harness.make_tree(tmp_path / str(quanta)))
    assert runs[1] == runs[scheduler.ALONE_QUANTA]
    turns = int(runs[1].stdout.split()[3])
    assert runs[1].status == 0 and turns > 10                 # the two threads took turns


def test_deadlock_is_reported(tools, tmp_path):
    binary = harness.compile_c("threads_deadlock", "-O2", PTHREAD)
    ours = harness.run_ncpu(binary, ["prog"], harness.make_tree(tmp_path))
    assert ours.stdout == b"joining\n"
    assert ours.status == 137
    assert len(ours.messages) == 1 and ours.messages[0].startswith("deadlock: every guest thread is waiting")
    assert "futex" in ours.messages[0]


# --- futex rules, without a guest ---------------------------------------------------
WAIT, WAKE, WAIT_BITSET, WAKE_BITSET, PRIVATE = 0, 1, 9, 10, 128
ADDR, TIMEOUT = 0x10000, 0x10100


@pytest.fixture
def machine():
    from ncpu.arm64.cpu import Memory
    mem = Memory()
    mem.map(ADDR, 0x1000, 3)
    kernel = SimpleNamespace(futex=FutexTable(), clock=Clock())
    tasks = [SimpleNamespace(mem=mem, futex_waiter=None, running=True) for _ in range(3)]
    return kernel, mem, tasks


def _call(kernel, task, op, val=0, timeout=0, val3=0xFFFFFFFF):
    try:
        return sys_futex(kernel, task, ADDR, op, val, timeout, 0, val3)
    except SyscallError as error:
        return -error.errno
    except WouldBlock:
        return "blocked"


def test_futex_wait_checks_the_word(machine):
    kernel, mem, (a, *_) = machine
    mem.write(ADDR, struct.pack("<I", 7))
    assert _call(kernel, a, WAIT, 8) == -errno.EAGAIN
    assert _call(kernel, a, WAIT | PRIVATE, 7) == "blocked"
    assert _call(kernel, a, WAIT | PRIVATE, 7) == "blocked"     # a retry still waits


def test_futex_wake_order_and_count(machine):
    kernel, mem, (a, b, c) = machine
    assert _call(kernel, a, WAIT, 0) == _call(kernel, b, WAIT | PRIVATE, 0) == "blocked"
    assert _call(kernel, c, WAKE, 0) == 0                       # count 0 wakes nobody
    assert _call(kernel, c, WAKE | PRIVATE, 1) == 1             # private and shared are one queue
    assert _call(kernel, a, WAIT, 0) == 0                       # the first waiter is the one woken
    assert _call(kernel, b, WAIT, 0) == "blocked"
    assert _call(kernel, c, WAKE, 10) == 1
    assert _call(kernel, b, WAIT, 0) == 0
    assert _call(kernel, c, WAKE, 10) == 0


def test_futex_bitsets(machine):
    kernel, mem, (a, b, c) = machine
    assert _call(kernel, a, WAIT_BITSET, 0, val3=0b01) == "blocked"
    assert _call(kernel, b, WAIT_BITSET, 0, val3=0b10) == "blocked"
    assert _call(kernel, c, WAKE_BITSET, 5, val3=0b10) == 1
    assert _call(kernel, b, WAIT_BITSET, 0) == 0
    assert _call(kernel, a, WAIT_BITSET, 0) == "blocked"
    assert _call(kernel, c, WAKE_BITSET, 5, val3=0) == -errno.EINVAL


def test_futex_timeout_runs_on_the_virtual_clock(machine):
    kernel, mem, (a, b, _) = machine
    wait_ns = 100 * NS_PER_INSTRUCTION                          # the time of 100 instructions
    mem.write(TIMEOUT, struct.pack("<qq", 0, wait_ns))          # relative for FUTEX_WAIT
    assert _call(kernel, a, WAIT, 0, TIMEOUT) == "blocked"
    assert kernel.futex.next_deadline() == wait_ns
    kernel.clock.instructions += 99
    assert _call(kernel, a, WAIT, 0, TIMEOUT) == "blocked"
    kernel.clock.instructions += 1
    assert _call(kernel, a, WAIT, 0, TIMEOUT) == -errno.ETIMEDOUT
    assert kernel.futex.waiters == [] and a.futex_waiter is None
    mem.write(TIMEOUT, struct.pack("<qq", 0, 0))                # absolute, already past
    assert _call(kernel, b, WAIT_BITSET, 0, TIMEOUT) == -errno.ETIMEDOUT
