"""Address-space calls: brk, mmap, munmap, mprotect, mremap, madvise.

Layout (guest space is 4 GiB): the program and its brk heap low, mmap
regions from MMAP_BASE upward (lowest free range first, so the same calls
give the same addresses every run), the stack just below 0xF0000000.
"""

from __future__ import annotations

import errno

from .. import abi
from ..errors import SyscallError
from ..files import HostFile
from . import sint, slong, syscall

MMAP_BASE = 0x40000000
BRK_LIMIT = MMAP_BASE          # the heap may grow up to the mmap area
GUEST_TOP = 1 << 32


def range_free(mem, addr: int, size: int) -> bool:
    """True when no page of [addr, addr+size) is mapped."""
    if addr + size > GUEST_TOP or addr <= 0:
        return False
    return mem.is_free(addr, size)


@syscall(214)
def sys_brk(k, p, addr, *_):
    if addr == 0 or addr < p.brk_start or addr >= BRK_LIMIT:
        return p.brk
    old_top, new_top = abi.page_up(p.brk), abi.page_up(addr)
    if new_top > old_top:
        if not range_free(p.mem, old_top, new_top - old_top):
            return p.brk
        p.mem.map(old_top, new_top - old_top, abi.PROT_READ | abi.PROT_WRITE)
    elif new_top < old_top:
        p.mem.unmap(new_top, old_top - new_top)
    p.brk = addr
    return p.brk


@syscall(222)
def sys_mmap(k, p, addr, length, prot, flags, fd, offset, *_):
    flags, prot = sint(flags), sint(prot)
    if length == 0 or addr & (abi.PAGE - 1) or offset & (abi.PAGE - 1):
        raise SyscallError(errno.EINVAL)
    if not flags & (abi.MAP_PRIVATE | abi.MAP_SHARED):
        raise SyscallError(errno.EINVAL)
    size = abi.page_up(length)
    if size >= GUEST_TOP:
        raise SyscallError(errno.ENOMEM)
    file = None
    if not flags & abi.MAP_ANONYMOUS:
        file = p.fds.get(sint(fd))
        if not isinstance(file, HostFile) or not file.readable:
            raise SyscallError(errno.EACCES if isinstance(file, HostFile) else errno.ENODEV)
    if flags & (abi.MAP_FIXED | abi.MAP_FIXED_NOREPLACE):
        if addr + size > GUEST_TOP:
            raise SyscallError(errno.ENOMEM)
        if flags & abi.MAP_FIXED_NOREPLACE and not range_free(p.mem, addr, size):
            raise SyscallError(errno.EEXIST)
        where = addr
    else:
        hint = addr if addr and range_free(p.mem, addr, size) else None
        where = hint or _find(p.mem, size)
    p.mem.map(where, size, prot & 7)
    if file is not None:
        # private copy of the file's bytes (MAP_SHARED writes are not written back)
        data = file.pread(length, slong(offset))
        if data:
            p.mem.write(where, data)
    return where


def _find(mem, size: int) -> int:
    try:
        where = mem.find_free(size, hint=MMAP_BASE)
    except MemoryError:
        raise SyscallError(errno.ENOMEM) from None
    if where < MMAP_BASE or where + size > 0xE0000000:
        raise SyscallError(errno.ENOMEM)
    return where


@syscall(215)
def sys_munmap(k, p, addr, length, *_):
    if addr & (abi.PAGE - 1) or length == 0 or addr + length > GUEST_TOP:
        raise SyscallError(errno.EINVAL)
    p.mem.unmap(addr, abi.page_up(length))
    return 0


@syscall(226)
def sys_mprotect(k, p, addr, length, prot, *_):
    if addr & (abi.PAGE - 1):
        raise SyscallError(errno.EINVAL)
    if length == 0:
        return 0
    size = abi.page_up(length)
    if not p.mem.is_mapped(addr, size):
        raise SyscallError(errno.ENOMEM)
    p.mem.protect(addr, size, sint(prot) & 7)
    return 0


@syscall(216)
def sys_mremap(k, p, old, old_size, new_size, flags, new_addr, *_):
    if old & (abi.PAGE - 1) or new_size == 0:
        raise SyscallError(errno.EINVAL)
    old_size, new_size = abi.page_up(old_size), abi.page_up(new_size)
    if not p.mem.is_mapped(old, old_size):
        raise SyscallError(errno.EFAULT)
    if new_size <= old_size:
        if new_size < old_size:
            p.mem.unmap(old + new_size, old_size - new_size)
        return old
    if range_free(p.mem, old + old_size, new_size - old_size):
        prot = _prot_of(p.mem, old)
        p.mem.map(old + old_size, new_size - old_size, prot)
        return old
    if not flags & abi.MREMAP_MAYMOVE:
        raise SyscallError(errno.ENOMEM)
    data = p.mem.read(old, old_size)
    prot = _prot_of(p.mem, old)
    where = _find(p.mem, new_size)
    p.mem.map(where, new_size, prot)
    p.mem.write(where, data)
    p.mem.unmap(old, old_size)
    return where


def _prot_of(mem, addr: int) -> int:
    perm = getattr(mem, "perm", None)
    if perm is not None:
        return int(perm[addr >> 12])
    return abi.PROT_READ | abi.PROT_WRITE


@syscall(233)
def sys_madvise(k, p, addr, length, advice, *_):
    MADV_DONTNEED = 4
    if advice == MADV_DONTNEED and length and p.mem.is_mapped(addr, abi.page_up(length)):
        # Linux gives back zero pages for private anonymous memory
        size = abi.page_up(length)
        p.mem.map(addr, size, _prot_of(p.mem, addr))
    return 0


@syscall(227)
def sys_msync(k, p, *_):
    return 0


@syscall(228)
def sys_mlock(k, p, *_):
    return 0


@syscall(229)
def sys_munlock(k, p, *_):
    return 0


@syscall(232)
def sys_mincore(k, p, addr, length, vec, *_):
    """Every mapped page is resident (gnulib's stack-overflow check asks)."""
    from . import write
    if addr & (abi.PAGE - 1):
        raise SyscallError(errno.EINVAL)
    pages = abi.page_up(length) // abi.PAGE
    if addr + pages * abi.PAGE > GUEST_TOP or (pages and not p.mem.is_mapped(addr, pages * abi.PAGE)):
        raise SyscallError(errno.ENOMEM)
    write(p, vec, b"\1" * pages)
    return 0
