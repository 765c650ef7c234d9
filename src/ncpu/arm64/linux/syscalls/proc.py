"""Process calls: exit, clone (fork or thread), execve, wait4, ids, limits, uname."""

from __future__ import annotations

import errno
import struct

from .. import abi, threads
from ..errors import SyscallError, WouldBlock
from . import MAX_ARG_BYTES, NO_RESULT, GuestFault, cstring, read as rd, sint, string_array, syscall, write as wr

# What uname reports.  Fixed (not the host's) so runs are deterministic;
# machine and sysname are what qemu-aarch64 reports.
UTSNAME = (b"Linux", b"ncpu", b"6.1.0", b"#1 SMP PREEMPT_DYNAMIC ncpu", b"aarch64", b"(none)")


@syscall(93)
def sys_exit(k, p, status, *_):
    threads.exit_thread(k, p, (status & 0xFF) << 8)      # this thread only
    return NO_RESULT


@syscall(94)
def sys_exit_group(k, p, status, *_):
    k.exit(p, (status & 0xFF) << 8)
    return NO_RESULT


@syscall(220)
def sys_clone(k, p, flags, stack, ptid, tls, ctid, *_):
    if len(k.tasks) >= k.max_procs:         # --max-procs: processes and threads alive at once
        raise SyscallError(errno.EAGAIN)
    if flags & abi.CLONE_THREAD:
        return threads.create(k, p, flags, stack, ptid, tls, ctid).pid
    # a process sharing memory without being a thread is not supported (vfork runs as fork)
    if flags & abi.CLONE_VM and not flags & abi.CLONE_VFORK:
        raise SyscallError(errno.ENOSYS)
    child = k.fork(p, stack=stack)
    if flags & abi.CLONE_SETTLS:
        child.state.tpidr_el0 = tls
    if flags & abi.CLONE_PARENT_SETTID and ptid:
        wr(p, ptid, struct.pack("<i", child.pid))
    if flags & (abi.CLONE_CHILD_SETTID | abi.CLONE_CHILD_CLEARTID) and ctid:
        if flags & abi.CLONE_CHILD_SETTID:
            try:
                child.mem.write(ctid, struct.pack("<i", child.pid))
            except GuestFault:
                pass
        if flags & abi.CLONE_CHILD_CLEARTID:
            child.tid_address = ctid
    return child.pid


@syscall(435)
def sys_clone3(k, p, *_):
    return -errno.ENOSYS        # glibc falls back to clone (the cross toolchain's never calls it)


@syscall(221)
def sys_execve(k, p, path, argv, envp, *_):
    name = cstring(p, path)
    budget = [MAX_ARG_BYTES]
    args = string_array(p, argv, budget)
    env = string_array(p, envp, budget)
    k.execve(p, name, args, env)
    return NO_RESULT


@syscall(260)
def sys_wait4(k, p, pid, status_ptr, options, rusage, *_):
    pid = sint(pid)
    children = [c for c in k.children(p) if _matches(c, pid, p)]
    if not children:
        raise SyscallError(errno.ECHILD)
    zombies = [c for c in children if not c.alive]
    if not zombies:
        if options & abi.WNOHANG:
            return 0
        raise WouldBlock()
    child = min(zombies, key=lambda c: c.pid)
    if status_ptr:
        wr(p, status_ptr, struct.pack("<i", child.exit_status))
    if rusage:
        wr(p, rusage, _rusage(k.clock.cpu_ns(child.instructions + child.children_instructions)))
    k.reap(p, child)
    return child.pid


def _matches(child, pid: int, parent) -> bool:
    if pid > 0:
        return child.pid == pid
    if pid == -1:
        return True
    if pid == 0:
        return child.pgid == parent.pgid
    return child.pgid == -pid


@syscall(95)
def sys_waitid(k, p, idtype, id_, infop, options, *_):
    P_ALL, P_PID, P_PGID = 0, 1, 2
    WEXITED, WNOWAIT = 4, 0x01000000
    pid = {P_ALL: -1, P_PID: sint(id_), P_PGID: -sint(id_)}.get(idtype)
    if pid is None:
        raise SyscallError(errno.EINVAL)
    children = [c for c in k.children(p) if _matches(c, pid, p)]
    if not children:
        raise SyscallError(errno.ECHILD)
    zombies = [c for c in children if not c.alive]
    if not zombies:
        if options & abi.WNOHANG:
            if infop:
                wr(p, infop, bytes(abi.SIGINFO_SIZE))
            return 0
        raise WouldBlock()
    child = min(zombies, key=lambda c: c.pid)
    from ..signals import siginfo
    status = child.exit_status
    code, value = (abi.CLD_EXITED, status >> 8) if status & 0x7F == 0 else (abi.CLD_KILLED, status & 0x7F)
    if infop:
        wr(p, infop, siginfo(abi.SIGCHLD, code, pid=child.pid, uid=k.uid, status=value))
    if not options & WNOWAIT:
        k.reap(p, child)
    return 0


def _rusage(ns: int) -> bytes:
    utime = struct.pack("<qq", ns // 10**9, (ns % 10**9) // 1000)
    return utime + bytes(abi.RUSAGE_SIZE - 16)


@syscall(165)
def sys_getrusage(k, p, who, buf, *_):
    if sint(who) not in (0, -1, 1):          # RUSAGE_SELF, RUSAGE_CHILDREN, RUSAGE_THREAD
        raise SyscallError(errno.EINVAL)
    n = p.children_instructions if sint(who) == -1 else p.instructions
    wr(p, buf, _rusage(k.clock.cpu_ns(n)))
    return 0


@syscall(172)
def sys_getpid(k, p, *_):
    return p.tgid


@syscall(178)
def sys_gettid(k, p, *_):
    return p.pid


@syscall(173)
def sys_getppid(k, p, *_):
    return p.ppid


@syscall(174)
def sys_getuid(k, p, *_):
    return k.uid


@syscall(175)
def sys_geteuid(k, p, *_):
    return k.uid


@syscall(176)
def sys_getgid(k, p, *_):
    return k.gid


@syscall(177)
def sys_getegid(k, p, *_):
    return k.gid


@syscall(148)
def sys_getresuid(k, p, a, b, c, *_):
    for ptr in (a, b, c):
        wr(p, ptr, struct.pack("<I", k.uid))
    return 0


@syscall(150)
def sys_getresgid(k, p, a, b, c, *_):
    for ptr in (a, b, c):
        wr(p, ptr, struct.pack("<I", k.gid))
    return 0


@syscall(158)
def sys_getgroups(k, p, size, ptr, *_):
    if sint(size) == 0:
        return 1
    wr(p, ptr, struct.pack("<I", k.gid))
    return 1


def _set_id(k, p, *ids):
    # the guest runs as one user; it may "change" to that user only
    for value in ids:
        if value & 0xFFFFFFFF not in (0xFFFFFFFF, k.uid, k.gid) and k.uid != 0:
            raise SyscallError(errno.EPERM)
    return 0


for _nr, _name in ((146, "setuid"), (144, "setgid"), (145, "setreuid"), (143, "setregid"),
                   (147, "setresuid"), (149, "setresgid"), (159, "setgroups")):
    syscall(_nr, _name)(lambda k, p, *a: _set_id(k, p, *a[:1]) if a else 0)


@syscall(151)
def sys_setfsuid(k, p, *_):
    return k.uid


@syscall(152)
def sys_setfsgid(k, p, *_):
    return k.gid


@syscall(154)
def sys_setpgid(k, p, pid, pgid, *_):
    pid, pgid = sint(pid), sint(pgid)
    target = p if pid in (0, p.tgid) else k.procs.get(pid)
    if target is None or (target.group is not p.group and target.ppid != p.tgid):
        raise SyscallError(errno.ESRCH)
    if pgid < 0:
        raise SyscallError(errno.EINVAL)
    target.pgid = pgid or target.pid
    return 0


@syscall(155)
def sys_getpgid(k, p, pid, *_):
    pid = sint(pid)
    target = p if pid in (0, p.tgid) else k.procs.get(pid)
    if target is None:
        raise SyscallError(errno.ESRCH)
    return target.pgid


@syscall(156)
def sys_getsid(k, p, pid, *_):
    pid = sint(pid)
    target = p if pid in (0, p.tgid) else k.procs.get(pid)
    if target is None:
        raise SyscallError(errno.ESRCH)
    return target.sid


@syscall(157)
def sys_setsid(k, p, *_):
    if p.pgid == p.tgid:
        raise SyscallError(errno.EPERM)
    p.sid = p.pgid = p.tgid
    return p.tgid


@syscall(96)
def sys_set_tid_address(k, p, addr, *_):
    p.tid_address = addr
    return p.pid


@syscall(99)
def sys_set_robust_list(k, p, *_):
    return 0


@syscall(100)
def sys_get_robust_list(k, p, *_):
    return -errno.ENOSYS


@syscall(293)
def sys_rseq(k, p, *_):
    return -errno.ENOSYS


@syscall(261)
def sys_prlimit64(k, p, pid, resource, new, old, *_):
    if sint(pid) not in (0, p.tgid) and sint(pid) not in k.procs:
        raise SyscallError(errno.ESRCH)
    limits = k.rlimits
    resource = sint(resource)
    if not 0 <= resource < 16:
        raise SyscallError(errno.EINVAL)
    if old:
        wr(p, old, abi.RLIMIT.pack(*limits.get(resource, (abi.RLIM_INFINITY, abi.RLIM_INFINITY))))
    if new:
        soft, hard = abi.RLIMIT.unpack(rd(p, new, 16))
        if soft > hard:
            raise SyscallError(errno.EINVAL)
        limits[resource] = (soft, hard)
    return 0


@syscall(163)
def sys_getrlimit(k, p, resource, old, *_):
    return sys_prlimit64(k, p, 0, resource, 0, old)


@syscall(164)
def sys_setrlimit(k, p, resource, new, *_):
    return sys_prlimit64(k, p, 0, resource, new, 0)


@syscall(160)
def sys_uname(k, p, buf, *_):
    data = b"".join(f.ljust(abi.UTSNAME_FIELD, b"\0")[:abi.UTSNAME_FIELD] for f in UTSNAME)
    wr(p, buf, data)
    return 0


@syscall(179)
def sys_sysinfo(k, p, buf, *_):
    uptime = k.clock.monotonic_ns() // 10**9
    wr(p, buf, abi.SYSINFO.pack(uptime, 0, 0, 0, 4 << 30, 3 << 30, 0, 0, 0, 0,
                                len(k.procs), 0, 0, 0, 1))
    return 0


@syscall(123)
def sys_sched_getaffinity(k, p, pid, size, mask, *_):
    if size < 8:
        raise SyscallError(errno.EINVAL)
    wr(p, mask, struct.pack("<Q", 1))      # one CPU: the machine is sequential
    return 8


@syscall(122)
def sys_sched_setaffinity(k, p, *_):
    return 0


@syscall(124)
def sys_sched_yield(k, p, *_):
    k.yield_now(p)
    return 0


@syscall(167)
def sys_prctl(k, p, option, arg2, *_):
    PR_SET_NAME, PR_GET_NAME = 15, 16
    if option == PR_SET_NAME:
        return 0
    if option == PR_GET_NAME:
        wr(p, arg2, b"ncpu".ljust(16, b"\0"))
        return 0
    return -errno.EINVAL


@syscall(278)
def sys_getrandom(k, p, buf, count, flags, *_):
    flags &= 0xFFFFFFFF                       # an unsigned int
    if flags & ~0x7:                          # GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE
        raise SyscallError(errno.EINVAL)
    if flags & 0x6 == 0x6:                    # GRND_INSECURE with GRND_RANDOM
        raise SyscallError(errno.EINVAL)
    count = min(count, 1 << 25)               # Linux returns at most 32 MiB per call
    wr(p, buf, k.clock.random_bytes(count))
    return count


@syscall(141)
def sys_getpriority(k, p, *_):
    return 20


@syscall(140)
def sys_setpriority(k, p, *_):
    return 0


@syscall(168)
def sys_getcpu(k, p, cpu, node, *_):
    for ptr in (cpu, node):
        if ptr:
            wr(p, ptr, struct.pack("<I", 0))
    return 0
