"""The text of the virtual /proc files: /proc/cpuinfo, /proc/meminfo, and per
process /proc/self/status and /proc/self/maps (also under /proc/PID/).

Generated when opened, from the machine's own state (never the host's), so a
program that reads them behaves the same on every host and every run.  The
figures agree with the system calls: one CPU (sched_getaffinity), 4 GiB of
memory with 3 GiB free (sysinfo), the features AT_HWCAP advertises, the
MIDR_EL1 that MRS reads.
"""

from __future__ import annotations

import errno

from ncpu.arm64.cpu.sysregs import MIDR_VALUE

from . import abi
from .errors import SyscallError
from .hwcap import HWCAP, feature_names

MEM_TOTAL_KB = 4 << 20          # sysinfo: totalram 4 GiB
MEM_FREE_KB = 3 << 20           # sysinfo: freeram 3 GiB

# name under /proc -> renderer; "self/..." entries are per process (also "PID/...")
FILES = ("cpuinfo", "meminfo", "self/status", "self/maps")
PER_PROCESS = tuple(name[5:] for name in FILES if name.startswith("self/"))


def cpuinfo(kernel, proc) -> bytes:
    """As Linux prints it: the AT_HWCAP features, and the ID fields of the
    MIDR_EL1 that MRS reads."""
    midr = MIDR_VALUE
    return (f"processor\t: 0\nBogoMIPS\t: 100.00\nFeatures\t: {' '.join(feature_names(HWCAP))}\n"
            f"CPU implementer\t: {midr >> 24:#04x}\nCPU architecture: 8\nCPU variant\t: {midr >> 20 & 0xF:#x}\n"
            f"CPU part\t: 0x{midr >> 4 & 0xFFF:03x}\nCPU revision\t: {midr & 0xF}\n\n").encode()


def meminfo(kernel, proc) -> bytes:
    rows = [("MemTotal", MEM_TOTAL_KB), ("MemFree", MEM_FREE_KB), ("MemAvailable", MEM_FREE_KB),
            ("Buffers", 0), ("Cached", 0), ("SwapCached", 0), ("SwapTotal", 0), ("SwapFree", 0)]
    return "".join(f"{name + ':':<16}{kb:>8} kB\n" for name, kb in rows).encode()


def _mask(bits: int) -> str:
    return f"{bits & abi.MASK64:016x}"


def status(kernel, proc) -> bytes:
    name = proc.exe_guest.rsplit("/", 1)[-1][:15]
    ignored = caught = 0
    for signo, action in proc.actions.items():
        if action.handler == abi.SIG_IGN:
            ignored |= 1 << (signo - 1)
        elif action.handler != abi.SIG_DFL:
            caught |= 1 << (signo - 1)
    pending = 0
    for signo, _info in proc.pending:
        pending |= 1 << (signo - 1)
    uid, gid = kernel.uid, kernel.gid
    lines = [
        f"Name:\t{name}", f"Umask:\t{proc.umask:04o}", "State:\tR (running)", f"Tgid:\t{proc.tgid}",
        "Ngid:\t0", f"Pid:\t{proc.pid}", f"PPid:\t{proc.ppid}", "TracerPid:\t0",
        f"Uid:\t{uid}\t{uid}\t{uid}\t{uid}", f"Gid:\t{gid}\t{gid}\t{gid}\t{gid}", "FDSize:\t64", "Groups:\t",
        f"Threads:\t{len(proc.group.threads)}", f"SigPnd:\t{_mask(pending)}", "ShdPnd:\t0000000000000000",
        f"SigBlk:\t{_mask(proc.sigmask)}", f"SigIgn:\t{_mask(ignored)}", f"SigCgt:\t{_mask(caught)}",
        "CapInh:\t0000000000000000", "CapPrm:\t000001ffffffffff", "CapEff:\t000001ffffffffff",
        "CapBnd:\t000001ffffffffff", "CapAmb:\t0000000000000000", "NoNewPrivs:\t0", "Seccomp:\t0",
        "Cpus_allowed:\t1", "Cpus_allowed_list:\t0", "voluntary_ctxt_switches:\t0",
        "nonvoluntary_ctxt_switches:\t0",
    ]
    return ("\n".join(lines) + "\n").encode()


def maps(kernel, proc) -> bytes:
    # the address space's own VMAs (Memory.maps), so the guest sees what mmap made
    return proc.mem.maps().encode()


RENDER = {"cpuinfo": cpuinfo, "meminfo": meminfo, "self/status": status, "self/maps": maps}


def render(name: str, kernel, proc) -> bytes:
    """The text of /proc/`name` as `proc` reads it; "PID/leaf" names another
    live task (ENOENT once it has exited, as Linux)."""
    owner, _, leaf = name.partition("/")
    if leaf and owner != "self":
        proc = kernel.tasks.get(int(owner))
        if proc is None or proc.mem is None:
            raise SyscallError(errno.ENOENT)
        name = "self/" + leaf
    return RENDER[name](kernel, proc)
