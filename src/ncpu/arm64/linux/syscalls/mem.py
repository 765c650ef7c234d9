"""Address-space calls: brk, mmap, munmap, mprotect, mremap, madvise, msync.

Layout (guest space is 4 GiB): the program and its brk heap low, mmap
regions from MMAP_BASE upward (lowest free range first, so the same calls
give the same addresses every run), the stack just below 0xF0000000.

Mappings are lazy (memory.Memory): a page gets a frame when first touched,
so mmap only records the mapping.  What may fail for want of memory: a
private writable or anonymous mapping (or brk growth) larger than the
machine's free frames gets ENOMEM, as Linux's overcommit heuristic refuses
a request larger than free memory; a fault that needs a frame when none is
left ends the machine (kernel.out_of_memory).
"""

from __future__ import annotations

import errno

from ncpu.arm64.cpu.vma import MappedFile

from .. import abi
from ..errors import SyscallError
from ..files import HostFile
from . import sint, slong, syscall

MMAP_BASE = 0x40000000
BRK_LIMIT = MMAP_BASE          # the heap may grow up to the mmap area
GUEST_TOP = 1 << 32
MS_ASYNC, MS_INVALIDATE, MS_SYNC = 1, 2, 4
MADV_DONTNEED = 4


def range_free(mem, addr: int, size: int) -> bool:
    """True when no page of [addr, addr+size) is mapped."""
    if addr + size > GUEST_TOP or addr <= 0:
        return False
    return mem.is_free(addr, size)


def _commit(mem, size: int) -> None:
    """ENOMEM for a request the machine's free memory could never back."""
    if size >> 12 > mem.pool.free_frames:
        raise SyscallError(errno.ENOMEM)


@syscall(214)
def sys_brk(k, p, addr, *_):
    if addr == 0 or addr < p.brk_start or addr >= BRK_LIMIT:
        return p.brk
    old_top, new_top = abi.page_up(p.brk), abi.page_up(addr)
    if new_top > old_top:
        if not range_free(p.mem, old_top, new_top - old_top) or \
                (new_top - old_top) >> 12 > p.mem.pool.free_frames:
            return p.brk
        p.mem.map(old_top, new_top - old_top, abi.PROT_READ | abi.PROT_WRITE, name="[heap]")
    elif new_top < old_top:
        p.mem.unmap(new_top, old_top - new_top)
    p.brk = addr
    return p.brk


@syscall(222)
def sys_mmap(k, p, addr, length, prot, flags, fd, offset, *_):
    flags, prot = sint(flags), sint(prot)
    if length == 0 or addr & (abi.PAGE - 1) or offset & (abi.PAGE - 1):
        raise SyscallError(errno.EINVAL)
    kind = flags & (abi.MAP_PRIVATE | abi.MAP_SHARED)
    if kind not in (abi.MAP_PRIVATE, abi.MAP_SHARED):
        raise SyscallError(errno.EINVAL)
    shared = kind == abi.MAP_SHARED
    size = abi.page_up(length)
    if size >= GUEST_TOP:
        raise SyscallError(errno.ENOMEM)
    mapped = None
    if not flags & abi.MAP_ANONYMOUS:
        file = p.fds.get(sint(fd))
        if file is None:
            raise SyscallError(errno.EBADF)
        if not isinstance(file, HostFile) or not file.readable:
            raise SyscallError(errno.EACCES if isinstance(file, HostFile) else errno.ENODEV)
        if shared and prot & abi.PROT_WRITE and not file.writable:
            raise SyscallError(errno.EACCES)
        if slong(offset) < 0:
            raise SyscallError(errno.EINVAL)
        try:
            mapped = MappedFile(file.fd, file.guest_path)
        except OSError as error:
            raise SyscallError(error.errno or errno.ENODEV) from None
    if mapped is None or (not shared and prot & abi.PROT_WRITE):
        _commit(p.mem, size)
    if flags & (abi.MAP_FIXED | abi.MAP_FIXED_NOREPLACE):
        if addr + size > GUEST_TOP or addr == 0:
            raise SyscallError(errno.ENOMEM if addr else errno.EPERM)
        if flags & abi.MAP_FIXED_NOREPLACE and not range_free(p.mem, addr, size):
            raise SyscallError(errno.EEXIST)
        where = addr
    else:
        hint = addr if addr and range_free(p.mem, addr, size) else None
        where = hint or _find(p.mem, size)
    p.mem.map(where, size, prot & 7, shared=shared, file=mapped, offset=slong(offset))
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
    if addr & (abi.PAGE - 1) or sint(prot) & ~7:
        raise SyscallError(errno.EINVAL)
    if length == 0:
        return 0
    size = abi.page_up(length)
    if addr + size > GUEST_TOP or not p.mem.is_mapped(addr, size):
        raise SyscallError(errno.ENOMEM)
    for v in _vmas(p.mem, addr, size):
        if v.shared and v.file is not None and sint(prot) & abi.PROT_WRITE and not _file_writable(v):
            raise SyscallError(errno.EACCES)
    p.mem.protect(addr, size, sint(prot) & 7)
    return 0


def _vmas(mem, addr: int, size: int):
    return [v for v in mem.vmas if v.start < addr + size and v.end > addr]


def _file_writable(v) -> bool:
    import fcntl
    import os
    try:
        return fcntl.fcntl(v.file.fd, fcntl.F_GETFL) & os.O_ACCMODE != os.O_RDONLY
    except OSError:
        return False


@syscall(216)
def sys_mremap(k, p, old, old_size, new_size, flags, new_addr, *_):
    if old & (abi.PAGE - 1) or new_size == 0 or flags & ~(abi.MREMAP_MAYMOVE | abi.MREMAP_FIXED):
        raise SyscallError(errno.EINVAL)
    old_size, new_size = abi.page_up(old_size), abi.page_up(new_size)
    if new_size >= GUEST_TOP or old + old_size > GUEST_TOP:
        raise SyscallError(errno.ENOMEM if new_size >= GUEST_TOP else errno.EFAULT)
    mem = p.mem
    if old_size == 0 or not mem.is_mapped(old, old_size) or len(_vmas(mem, old, old_size)) != 1:
        raise SyscallError(errno.EFAULT)
    v = _vmas(mem, old, old_size)[0]
    if flags & abi.MREMAP_FIXED and not flags & abi.MREMAP_MAYMOVE:
        raise SyscallError(errno.EINVAL)
    if new_size <= old_size and not flags & abi.MREMAP_FIXED:
        if new_size < old_size:
            mem.unmap(old + new_size, old_size - new_size)
        return old
    if new_size < old_size:                       # MREMAP_FIXED to a smaller size
        mem.unmap(old + new_size, old_size - new_size)
        old_size = new_size
    grow = new_size - old_size
    if not v.shared:
        _commit(mem, grow)
    offset = v.file_offset(old) if v.file is not None else 0
    if grow and not flags & abi.MREMAP_FIXED and range_free(mem, old + old_size, grow):
        mem.map(old + old_size, grow, v.prot, shared=v.shared, file=v.file, offset=offset + old_size,
                name=v.name)
        return old
    if not flags & abi.MREMAP_MAYMOVE:
        raise SyscallError(errno.ENOMEM)
    if flags & abi.MREMAP_FIXED:
        where = new_addr
        if where & (abi.PAGE - 1) or where + new_size > GUEST_TOP or where < old + old_size and old < where + new_size:
            raise SyscallError(errno.EINVAL)
        mem.unmap(where, new_size)
    else:
        where = _find(mem, new_size)
    mem.move(old, old_size, where)
    if grow:
        mem.map(where + old_size, grow, v.prot, shared=v.shared, file=v.file, offset=offset + old_size,
                name=v.name)
    return where


@syscall(233)
def sys_madvise(k, p, addr, length, advice, *_):
    if addr & (abi.PAGE - 1):
        raise SyscallError(errno.EINVAL)
    if length == 0:
        return 0
    size = abi.page_up(length)
    if addr + size > GUEST_TOP or not p.mem.is_mapped(addr, size):
        raise SyscallError(errno.ENOMEM)
    if advice == MADV_DONTNEED:
        # Linux: private pages read back as zero (anonymous) or the file's bytes
        p.mem.discard(addr, size)
    return 0


@syscall(227)
def sys_msync(k, p, addr, length, flags, *_):
    if addr & (abi.PAGE - 1) or flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC) or \
            flags & (MS_ASYNC | MS_SYNC) == MS_ASYNC | MS_SYNC:
        raise SyscallError(errno.EINVAL)
    if length == 0:
        return 0
    size = abi.page_up(length)
    if addr + size > GUEST_TOP or not p.mem.is_mapped(addr, size):
        raise SyscallError(errno.ENOMEM)
    p.mem.sync(addr, size)
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
