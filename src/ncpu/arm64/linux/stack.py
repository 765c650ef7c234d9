"""The initial process stack: argc, argv, envp, auxv and the strings they point to.

Layout from the top, as Linux builds it: the AT_EXECFN string, the
environment and argument strings, the platform string and the 16 AT_RANDOM
bytes, then (16-byte aligned) argc, argv[], NULL, envp[], NULL, auxv pairs.
"""

from __future__ import annotations

import struct

from . import abi
from .elf import Image
from .hwcap import HWCAP, HWCAP2

STACK_TOP = 0xF0000000
STACK_SIZE = 8 << 20
# AT_HWCAP and AT_HWCAP2: the features the CPU implements (hwcap.py); the program's
# output does not depend on which string routine glibc picks from them, only the
# instruction count does.
# AT_SYSINFO_EHDR is absent: there is no vDSO, so glibc makes real system
# calls for clock_gettime and gettimeofday (which keeps them deterministic
# and counted); qemu-user 7.2's auxv has none either.
PLATFORM = b"aarch64"
MINSIGSTKSZ = 5120


def build(mem, image: Image, argv: list[bytes], envp: list[bytes], *, execfn: bytes,
          random16: bytes, uid: int = 0, gid: int = 0, hwcap: int = HWCAP,
          top: int = STACK_TOP, size: int = STACK_SIZE, interp_base: int = 0) -> int:
    """Map the stack, write everything, return the initial sp.

    `interp_base` is where the interpreter was loaded (AT_BASE; 0 for a static program).
    """
    mem.map(top - size, size, abi.PROT_READ | abi.PROT_WRITE, name="[stack]")
    pos = top - 16            # a little gap at the very top, as the kernel leaves

    def push_bytes(data: bytes) -> int:
        nonlocal pos
        pos -= len(data)
        mem.write(pos, data)
        return pos

    execfn_addr = push_bytes(execfn + b"\0")
    env_addrs = [push_bytes(s + b"\0") for s in reversed(envp)][::-1]
    arg_addrs = [push_bytes(s + b"\0") for s in reversed(argv)][::-1]
    platform_addr = push_bytes(PLATFORM + b"\0")
    pos &= ~15
    random_addr = push_bytes(random16)
    auxv = [
        (abi.AT_PHDR, image.phdr), (abi.AT_PHENT, image.phent), (abi.AT_PHNUM, image.phnum),
        (abi.AT_PAGESZ, abi.PAGE), (abi.AT_BASE, interp_base), (abi.AT_FLAGS, 0),
        (abi.AT_ENTRY, image.entry), (abi.AT_UID, uid), (abi.AT_EUID, uid), (abi.AT_GID, gid),
        (abi.AT_EGID, gid), (abi.AT_SECURE, 0), (abi.AT_RANDOM, random_addr),
        (abi.AT_HWCAP, hwcap), (abi.AT_HWCAP2, HWCAP2), (abi.AT_CLKTCK, 100),
        (abi.AT_PLATFORM, platform_addr), (abi.AT_EXECFN, execfn_addr),
        (abi.AT_MINSIGSTKSZ, MINSIGSTKSZ), (abi.AT_NULL, 0),
    ]
    words = [len(argv), *arg_addrs, 0, *env_addrs, 0]
    for key, value in auxv:
        words += [key, value]
    table = struct.pack(f"<{len(words)}Q", *words)
    sp = (pos - len(table)) & ~15
    if sp < top - size + 4096:
        raise ValueError("arguments and environment do not fit on the stack")
    mem.write(sp, table)
    return sp
