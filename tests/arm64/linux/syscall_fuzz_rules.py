"""Comparing the syscall fuzzer's lines from qemu-aarch64 and from our machine.

Each line is `nr a0 a1 a2 a3 a4 a5 mode0 mode1 iovneg -> ret`: the arguments in hex,
the access modes of descriptors a0 and a1 as the guest saw them (-1: not
open), whether an iovec array of the fuzzer's holds a negative length, and
the result (-errno on failure).

qemu's answer is the reference except where qemu is not Linux. qemu checks
guest buffers, iovec arrays and some flags before it hands the call to the
host kernel, which looks up the descriptor first; and qemu's own host
descriptors live in the guest's fd numbers. So where Linux's answer follows
from the arguments and the fd table alone (the rules below, each from the
kernel's source order), that answer is expected instead, and counted.
"""

from __future__ import annotations

import errno
from collections import Counter
from dataclasses import dataclass

READS = {63, 65, 67, 69}          # read, readv, pread64, preadv: a0 must be open for reading
WRITES = {64, 66, 68, 70}         # write, writev, pwrite64, pwritev: a0 must be open for writing
POSITIONED = {67, 68, 69, 70}     # a negative offset (a3) is EINVAL before anything else
DESCRIPTOR_FIRST = READS | WRITES | {23, 25, 57, 61, 62, 80, 82, 83}   # fdget() comes first


@dataclass
class Call:
    nr: int
    args: tuple[int, ...]
    modes: tuple[int, int]
    iovneg: bool
    ret: int

    @classmethod
    def parse(cls, line: str) -> "Call":
        left, ret = line.split(" -> ")
        fields = left.split()
        return cls(int(fields[0]), tuple(int(a, 16) for a in fields[1:7]),
                   (int(fields[7]), int(fields[8])), fields[9] == "1", int(ret))


def _slong(v: int) -> int:
    return v - (1 << 64) if v >> 63 else v


# The fuzzer's layout (syscall_fuzz.c): three read-write pages, one unmapped, one read-only.
SCRATCH, PAGE = 0x40000000, 4096
MAX_IO = 1 << 20    # what one read or write moves at most on our machine
FD_LIMIT = 1024     # our RLIMIT_NOFILE, Linux's default soft limit; qemu passes the host's through


def _readable(addr: int, n: int) -> bool:
    """Is [addr, addr+n) known readable? (0 counts: "no pointer")."""
    if addr == 0:
        return True
    inside = lambda lo, hi: lo <= addr and addr + n <= hi  # noqa: E731
    return inside(SCRATCH, SCRATCH + 3 * PAGE) or inside(SCRATCH + 4 * PAGE, SCRATCH + 5 * PAGE)


def _writable(addr: int, n: int) -> bool:
    return n == 0 or SCRATCH <= addr and addr + n <= SCRATCH + 3 * PAGE   # copy_to_user of 0 bytes never faults


def _sint(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def _usable(mode: int, reading: bool) -> bool:
    return mode in ((0, 2) if reading else (1, 2))


def linux_answer(call: Call, qemu_ret: int) -> tuple[int, str] | None:
    """(Linux's result, rule name) where qemu's order of checks is not
    Linux's; None where qemu's answer is the reference."""
    nr, a, (mode0, mode1) = call.nr, call.args, call.modes
    if nr in POSITIONED and _slong(a[3]) < 0:
        return -errno.EINVAL, "negative offset checked first"
    if nr in DESCRIPTOR_FIRST:
        if mode0 == -1 or (nr in READS and not _usable(mode0, True)) or (nr in WRITES and not _usable(mode0, False)):
            return -errno.EBADF, "descriptor checked first"
    if nr in (65, 66, 69, 70) and call.iovneg and a[2] <= 1024 and _readable(a[1], 16 * a[2]):
        return -errno.EINVAL, "iovec lengths checked before buffers"   # qemu checks them in turn
    if nr == 134 and a[3] == 8 and _readable(a[1], 32) and not 1 <= _sint(a[0]) <= 64:
        return -errno.EINVAL, "signal number checked before oldact"
    if nr == 25 and _sint(a[1]) in (8, 15):
        return None if qemu_ret == 0 and call.ret == 0 else (call.ret, "excluded: F_SETOWN names host pids")
    if nr == 71 and not (a[2] and qemu_ret == -errno.EFAULT) and not _usable(mode1, True):
        return -errno.EBADF, "descriptor checked first"   # sendfile reads *offset, then in_fd
    if nr == 71 and qemu_ret == -errno.EOVERFLOW:
        return call.ret, "excluded: sendfile past the host filesystem's largest file"
    if nr == 24 and a[2] & 0xFFFFFFFF & ~0x80000 == 0 and _sint(a[0]) != _sint(a[1]) \
            and _sint(a[1]) >= FD_LIMIT:
        return -errno.EBADF, "descriptor limit 1024"
    if nr == 25 and _sint(a[1]) in (0, 1030) and mode0 != -1 and a[2] & 0xFFFFFFFF >= FD_LIMIT:
        return -errno.EINVAL, "descriptor limit 1024"
    if nr == 61 and qemu_ret == -errno.ENOMEM:
        # qemu allocates `count` bytes on the host; our fds are regular files: ENOTDIR
        return -errno.ENOTDIR, "getdents64 on a file"
    if nr == 278 and (a[2] & ~7 & 0xFFFFFFFF or a[2] & 6 == 6):
        return -errno.EINVAL, "getrandom flags checked first"   # qemu checks the buffer first
    if nr == 179 and a[0] == 0:
        return -errno.EFAULT, "sysinfo(NULL)"            # qemu skips the copy for NULL
    if nr == 136 and a[1] <= 8 and _writable(a[0], a[1]):
        return 0, "rt_sigpending copies size bytes"      # qemu always copies 8
    if nr == 113 and _sint(a[0]) < 0 and _sint(a[0]) & 3 != 3 and ~_sint(a[0]) >> 3:
        return call.ret, "excluded: a CPU clock of a host pid"
    if nr in (63, 65, 67, 69, 64, 66, 68, 70, 71) and qemu_ret > MAX_IO and call.ret == MAX_IO:
        return MAX_IO, "at most 1 MiB per call"
    return None


def compare(qemu_lines: list[str], our_lines: list[str]) -> tuple[list[str], Counter]:
    """Mismatches (as readable lines) and how often each rule applied."""
    assert len(qemu_lines) == len(our_lines), (len(qemu_lines), len(our_lines))
    mismatches, rules = [], Counter()
    for q_line, o_line in zip(qemu_lines, our_lines):
        if q_line.startswith("done"):
            assert q_line == o_line
            continue
        q, o = Call.parse(q_line), Call.parse(o_line)
        assert (q.nr, q.args) == (o.nr, o.args), "the two runs issued different calls"
        rule = linux_answer(o, q.ret)
        expected = q.ret if rule is None else rule[0]
        if rule is not None:
            rules[rule[1]] += 1
        if o.ret != expected:
            mismatches.append(f"{o_line}  (expected {expected}{'' if rule is None else ', ' + rule[1]})")
    return mismatches, rules
