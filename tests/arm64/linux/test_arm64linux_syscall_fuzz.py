"""The system call fuzzer (c/syscall_fuzz.c): thousands of random calls with
random and boundary arguments never raise a host exception, and where qemu-aarch64
gives Linux's answer ours is the same (syscall_fuzz_rules.py says where it does not).

`compare` mode issues the calls whose results do not depend on the host and
compares every return value; the syscalls left out of it, and why, are
listed in EXCLUDED (counted by a test, so the list cannot grow unnoticed).
`all` mode issues any number (0-99999, negative, unassigned), in forked
batches of 100, on our machine only: it must end normally.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

import arm64linux_harness as harness
from syscall_fuzz_rules import compare

# Syscalls the compare list leaves out, with the reason (each is still issued in `all` mode).
EXCLUDED = {
    17: "getcwd: the host's directory under qemu",
    29: "ioctl: qemu answers ENOSYS for requests it does not translate",
    99: "set_robust_list: qemu does not implement it",
    114: "clock_getres: qemu ignores a failed copy-out",
    132: "sigaltstack: qemu checks the old-stack pointer before the new stack",
    278: "getrandom: random bytes, and qemu checks the buffer before the flags",
    "paths": "openat, unlinkat, mkdirat, renameat, ...: a random path under qemu is the host's",
    "ids": "getpid, getuid, gettid, prlimit64, sched_getaffinity, umask, times, brk, mmap: host values",
    "blocking": "nanosleep, ppoll, pselect6, futex, wait4, pipe2: qemu really sleeps or waits",
    "lethal": "exit, kill, tgkill, clone, execve, rt_sigreturn, munmap, mprotect: under qemu they act on the host",
}


def _run_both(binary, argv, tmp_path):
    root_q = harness.make_tree(tmp_path / "q")
    root_n = harness.make_tree(tmp_path / "n")
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(harness.run_qemu, binary, argv, root_q, guard=False)   # the fuzzer probes descriptors
        ours = harness.run_ncpu(binary, argv, root_n)
        ref = future.result()
    return ref, ours


def _seeds(default: int, slow: int):
    return [pytest.param(s, marks=[pytest.mark.slow] if s > default else []) for s in range(1, slow + 1)]


@pytest.mark.parametrize("seed", _seeds(1, 6))
def test_fuzz_matches_qemu(seed, tools, tmp_path):
    binary = harness.compile_c("syscall_fuzz")
    count = 3000
    ref, ours = _run_both(binary, ["prog", "compare", str(seed), str(count)], tmp_path)
    assert ref.status == 0, ref.stderr
    assert ours.status == 0 and not ours.messages, ours.messages
    q_lines, o_lines = ref.stdout.decode().splitlines(), ours.stdout.decode().splitlines()
    assert o_lines[-1] == f"done {count}"
    mismatches, rules = compare(q_lines, o_lines)
    assert not mismatches, "\n".join(mismatches[:20])
    assert sum(rules.values()) < count // 2     # most calls are compared with qemu's answer


@pytest.mark.parametrize("seed", _seeds(1, 4))
def test_fuzz_any_syscall_never_raises(seed, tools, tmp_path):
    """Any number, any arguments: the machine ends normally (a host exception
    would propagate out of run_ncpu and fail the test)."""
    binary = harness.compile_c("syscall_fuzz")
    root = harness.make_tree(tmp_path / "n")
    ours = harness.run_ncpu(binary, ["prog", "all", str(seed), "3000"], root)
    assert ours.status == 0, (ours.stderr, ours.messages)
    assert ours.stdout.decode().startswith("done 30 batches")


def test_exclusions_are_counted():
    assert len(EXCLUDED) == 10


# c/syscall_edges.c: Linux's answer for each case (several would hang or hurt under qemu).
EDGES = {
    "preadv_2^40": -14, "preadv_SIZE_MAX": -22,                  # EFAULT, EINVAL
    "writev_second_bad": 5, "writev_first_bad": -14,             # a short write; EFAULT
    "writev_amplified": 1 << 20, "readv_amplified": 1 << 20,     # 1,024 x 16 MiB: 1 MiB moves
    "writev_1025": -22,                                          # more than UIO_MAXIOV
    "tgkill_-1_-1_9": -22, "tkill_0_9": -22,                     # EINVAL: only single tasks
    "nanosleep_bad_nsec": -22, "nanosleep_INT64_MAX": 0,         # sleeps in virtual time
    "clock_gettime_after": 0, "monotonic_sec_positive": 1,
    "execve_9MiB": -7, "execve_200KB_arg": -7,                   # E2BIG
    "proc_fd_file_rest": -20, "proc_fd_dir_inner_opens": 1,      # ENOTDIR through a file's fd
    "proc_fd_dir_missing": -2,
    "pselect6_huge_nfds": 0, "ppoll_huge_nfds": -22,             # clamped to the fd table; EINVAL
    "read_into_readonly": -14, "offset_kept": 0,                 # EFAULT before consuming input
}


def test_syscall_edges(tools, tmp_path):
    binary = harness.compile_c("syscall_edges")
    ours = harness.run_ncpu(binary, ["prog"], harness.make_tree(tmp_path / "n"))
    assert ours.status == 0, (ours.stderr, ours.messages)
    got = {name: int(value) for name, value in (line.split() for line in ours.stdout.decode().splitlines())}
    assert got == EDGES
