"""strace's way of printing signal sets, sigaction structures and resource limits.

These are the argument kinds `sa` / `sao` (struct sigaction, read / filled),
`ss` / `sso` (sigset_t, read / filled), `H` (sigprocmask's how), `R`
(a resource number), `rl` / `rlo` (struct rlimit, read / filled) of
strace.SIGNATURES, written the way strace's default output writes them:

    rt_sigaction(SIGINT, {sa_handler=0x400718, sa_mask=[TERM], sa_flags=SA_RESTORER|SA_RESTART,
                 sa_restorer=0x4007f0}, NULL, 8) = 0
    rt_sigprocmask(SIG_BLOCK, [INT USR1], [], 8) = 0
    prlimit64(0, RLIMIT_NOFILE, NULL, {rlim_cur=1024, rlim_max=1024}) = 0
"""

from __future__ import annotations

import struct

from ncpu.arm64.linux import abi

# sa_flags bits, in strace's order
SA_FLAGS = [(0x04000000, "SA_RESTORER"), (0x08000000, "SA_ONSTACK"), (0x10000000, "SA_RESTART"),
            (0x40000000, "SA_NODEFER"), (0x80000000, "SA_RESETHAND"), (0x4, "SA_SIGINFO"),
            (0x1, "SA_NOCLDSTOP"), (0x2, "SA_NOCLDWAIT"), (0x400, "SA_UNSUPPORTED"),
            (0x800, "SA_EXPOSE_TAGBITS")]
HOW = {0: "SIG_BLOCK", 1: "SIG_UNBLOCK", 2: "SIG_SETMASK"}
RESOURCES = ["RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_DATA", "RLIMIT_STACK", "RLIMIT_CORE", "RLIMIT_RSS",
             "RLIMIT_NPROC", "RLIMIT_NOFILE", "RLIMIT_MEMLOCK", "RLIMIT_AS", "RLIMIT_LOCKS",
             "RLIMIT_SIGPENDING", "RLIMIT_MSGQUEUE", "RLIMIT_NICE", "RLIMIT_RTPRIO", "RLIMIT_RTTIME"]
RLIM_INFINITY = (1 << 64) - 1
SIGRTMIN = 32


def signal_short(signo: int) -> str:
    """A signal as a set member: INT, CHLD, RTMIN, RT_3."""
    if signo in abi.SIGNAL_NAMES:
        return abi.SIGNAL_NAMES[signo][3:]
    if signo == SIGRTMIN:
        return "RTMIN"
    return f"RT_{signo - SIGRTMIN}" if signo > SIGRTMIN else str(signo)


def sigset(mask: int) -> str:
    """[INT TERM]; more than half the signals set: ~[...] of those not set."""
    members = [s for s in range(1, 65) if mask >> (s - 1) & 1]
    if len(members) > 32:
        return "~[" + " ".join(signal_short(s) for s in range(1, 65) if not mask >> (s - 1) & 1) + "]"
    return "[" + " ".join(signal_short(s) for s in members) + "]"


def flags(value: int, names) -> str:
    parts = []
    for bit, name in names:
        if value & bit:
            parts.append(name)
            value &= ~bit
    if value:
        parts.append(hex(value))
    return "|".join(parts) or "0"


def sigaction(handler: int, sa_flags: int, restorer: int, mask: int) -> str:
    shown = {abi.SIG_DFL: "SIG_DFL", abi.SIG_IGN: "SIG_IGN"}.get(handler, hex(handler))
    text = f"{{sa_handler={shown}, sa_mask={sigset(mask)}, sa_flags={flags(sa_flags, SA_FLAGS)}"
    if sa_flags & 0x04000000:
        text += f", sa_restorer={restorer:#x}"
    return text + "}"


def rlim(value: int, infinity: str) -> str:
    if value == RLIM_INFINITY:
        return infinity
    if value > 1024 and value % 1024 == 0:
        return f"{value // 1024}*1024"
    return str(value)


def rlimit(cur: int, maximum: int, infinity: str = "RLIM64_INFINITY") -> str:
    return f"{{rlim_cur={rlim(cur, infinity)}, rlim_max={rlim(maximum, infinity)}}}"


def resource(value: int) -> str:
    return RESOURCES[value] if value < len(RESOURCES) else str(value)


# --- readers of guest memory, in strace.STRUCTS's calling convention --------------------------------
def read_sigaction(proc, addr, args, i, result) -> str:
    return sigaction(*abi.SIGACTION.unpack(proc.mem.read(addr, abi.SIGACTION.size)))


def read_sigset(proc, addr, args, i, result) -> str:
    return sigset(struct.unpack("<Q", proc.mem.read(addr, 8))[0])


def read_rlimit(proc, addr, args, i, result, infinity: str = "RLIM64_INFINITY") -> str:
    return rlimit(*struct.unpack("<QQ", proc.mem.read(addr, 16)), infinity=infinity)
