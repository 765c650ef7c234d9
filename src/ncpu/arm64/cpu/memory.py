"""Guest virtual memory: a flat page table over a 4 GiB guest space, lazily filled.

Why this shape: the compiled hot loop needs plain numpy arrays it can index
without calling back into Python.  A guest page number (addr >> 12) indexes
`pt` (int32, -1 = no frame) which names a frame of the machine's physical
memory `pool.data` (one flat uint8 array, 4096 bytes per frame, shared by
every process: frames.FramePool) and `perm` (PROT_* bits the loop checks).
Typed views of the same buffer (`d16`, `d32`, `d64`) serve whole-word work (instruction
fetch, DC ZVA); guest loads and stores inside a page read the bytes at any alignment
(guest_access.host_read/host_write).

What the guest mapped is recorded separately, as VMAs (vma.Vma: range,
protection, private/shared, file).  Frames come on first touch: the loop
faults on pt < 0 or a missing `perm` bit, and `resolve` gives the page a
frame (zero, the file's bytes, or a copy of a shared one) and the loop
re-executes the instruction; only a fault no VMA allows is the guest's.
`perm` may hold less than the VMA's protection: PROT_WRITE is withheld
from a private page whose frame is shared (after fork: copy-on-write) and
from a clean MAP_SHARED file page (the first write marks it dirty, to be
written back by msync, munmap or exit).

Why the page table costs little: `pt` and `dc_row` start as private host
mappings of one file of -1s, so the host commits their pages only when
written; `touched` remembers which 1024-page chunks were ever given a
frame, and fork, unmap and release look at those chunks only.

The decode cache lives here too because it belongs to the address space:
`dc_row[page]` is the decode-cache row of a page that holds decoded code
(-1 if none); a guest or host write to such a page marks its row undecoded.
"""
from __future__ import annotations

import bisect
import mmap
import os
import tempfile
import weakref
from collections import namedtuple

import numpy as np

from .frames import FramePool, OutOfMemory  # noqa: F401  (OutOfMemory is part of this module's API)
from .vma import MappedFile, Vma  # noqa: F401

PAGE_SHIFT = 12
PAGE_SIZE = 1 << PAGE_SHIFT
PAGE_MASK = PAGE_SIZE - 1
ADDR_BITS = 32                      # guest space is [0, 4 GiB); beyond faults
NPAGES = 1 << (ADDR_BITS - PAGE_SHIFT)
WORDS_PER_PAGE = PAGE_SIZE // 4
# dc_nat[row]: per decode-cache row (a page of code), what native.py keeps: the address of the
# page's native function (0: none yet, -1: none to be made), the instructions interpreted on the
# page (its heat) and how many times it was compiled
DC_NAT, DC_HEAT, DC_TRIES = 0, 1, 2
DC_NAT_COLUMNS = 3
MARK_BASE = -16     # dc_op of a slot with native code: MARK_BASE - op (the decoder's -1 undecoded, -2 UNDEF)
MAX_TRIES = 4       # times a page may become hot (native.py samples and translates each time)
CHUNK_SHIFT = 10                    # pages per `touched` chunk: 1024 (one host page of pt)
CHUNK = 1 << CHUNK_SHIFT

PROT_NONE, PROT_READ, PROT_WRITE, PROT_EXEC = 0, 1, 2, 4
_ACCESS_BIT = {"read": PROT_READ, "write": PROT_WRITE, "exec": PROT_EXEC}

# Arrays handed to the compiled code, as one namedtuple (numba supports them).
MemArrays = namedtuple(
    "MemArrays",
    "pt perm data d16 d32 d64 dc_row dc_op dc_word dc_imm dc_regs dc_meta dc_nat",
)


class GuestFault(Exception):
    """A host-side access touched guest memory that is not mapped."""

    def __init__(self, address: int, access: str = "read"):
        super().__init__(f"guest {access} fault at {address:#x}")
        self.address = address
        self.access = access


def _check_range(addr: int, size: int) -> tuple[int, int]:
    if addr & PAGE_MASK:
        raise ValueError(f"address {addr:#x} is not page aligned")
    if size <= 0:
        raise ValueError("size must be positive")
    first = addr >> PAGE_SHIFT
    last = (addr + size - 1) >> PAGE_SHIFT
    if last >= NPAGES:
        raise ValueError(f"range {addr:#x}+{size:#x} is outside the 4 GiB guest space")
    return first, last + 1


_minus_ones_file = None


def _minus_ones(n: int) -> np.ndarray:
    """An int32 array of n -1s whose host pages are committed only when written
    (a private mapping of a file of 0xFF bytes); np.full where that is not possible."""
    global _minus_ones_file
    nbytes = n * 4
    try:
        if _minus_ones_file is None or _minus_ones_file[1] < nbytes:
            # memory (memfd), not a disk file: a disk file's page cache may hold large folios,
            # which the host maps whole (2 MiB at a touch) into every mapping's resident size
            fd = os.memfd_create("ncpu-minus-ones") if hasattr(os, "memfd_create") else None
            f = open(fd, "w+b") if fd is not None else tempfile.TemporaryFile(prefix="ncpu-pt-")
            for _ in range(0, nbytes, 1 << 16):
                f.write(b"\xff" * (1 << 16))
            f.flush()
            _minus_ones_file = (f, nbytes)
        m = mmap.mmap(_minus_ones_file[0].fileno(), nbytes, flags=mmap.MAP_PRIVATE,
                      prot=mmap.PROT_READ | mmap.PROT_WRITE)
        return np.frombuffer(m, np.int32, n)
    except (OSError, ValueError, AttributeError):
        return np.full(n, -1, np.int32)


class Memory:
    """Guest virtual memory (see module docstring)."""

    def __init__(self, pool: FramePool | None = None, _dc_rows: int = 16):
        self.pool = pool if pool is not None else FramePool()
        self.pt = _minus_ones(NPAGES)
        self.perm = np.zeros(NPAGES, np.uint8)
        self.touched = np.zeros(NPAGES >> CHUNK_SHIFT, bool)
        self.dc_row = _minus_ones(NPAGES)
        self._dc_alloc(_dc_rows)
        self.dc_meta = np.zeros(2, np.int64)              # [0] = decode rows in use
        self.vmas: list[Vma] = []                         # sorted, disjoint
        self._starts: list[int] = []
        self._arrays = None
        self.released = False

    @property
    def data(self) -> np.ndarray:
        return self.pool.data

    # ---- decode cache and the compiled loop's arrays ---------------------
    def _dc_alloc(self, rows: int) -> None:
        self.dc_op = np.full((rows, WORDS_PER_PAGE), -1, np.int32)
        self.dc_word = np.zeros((rows, WORDS_PER_PAGE), np.int64)
        self.dc_imm = np.zeros((rows, WORDS_PER_PAGE), np.int64)
        self.dc_regs = np.zeros((rows, WORDS_PER_PAGE), np.int32)   # decoder.regs_of
        self.dc_nat = np.zeros((rows, DC_NAT_COLUMNS), np.int64)    # native.py: the page's native code
        self._arrays = None

    def grow_decode_cache(self) -> None:
        """Called by the CPU when the compiled loop ran out of decode rows."""
        old = (self.dc_op, self.dc_word, self.dc_imm, self.dc_regs, self.dc_nat)
        n = len(old[0])
        self._dc_alloc(n * 2)
        self.dc_op[:n], self.dc_word[:n], self.dc_imm[:n], self.dc_regs[:n], self.dc_nat[:n] = old

    def arrays(self) -> MemArrays:
        """The arrays the compiled code works on (rebuilt after the pool or the decode cache grew)."""
        d = self.pool.data
        if self._arrays is None or self._arrays.data is not d:
            self._arrays = MemArrays(self.pt, self.perm, d, d.view(np.uint16), d.view(np.uint32),
                                     d.view(np.int64), self.dc_row, self.dc_op, self.dc_word,
                                     self.dc_imm, self.dc_regs, self.dc_meta, self.dc_nat)
        return self._arrays

    def _spans(self, first: int, end: int):
        """(lo, hi) page ranges of [first, end) inside chunks that ever had a frame."""
        c0, c1 = first >> CHUNK_SHIFT, ((end - 1) >> CHUNK_SHIFT) + 1
        for c in np.nonzero(self.touched[c0:c1])[0].tolist():
            lo = max(first, (c0 + c) << CHUNK_SHIFT)
            hi = min(end, (c0 + c + 1) << CHUNK_SHIFT)
            yield lo, hi

    def _invalidate_code(self, first: int, end: int) -> None:
        for lo, hi in self._spans(first, end):
            rows = self.dc_row[lo:hi]
            rows = rows[rows >= 0]
            if len(rows):
                self.dc_op[rows] = -1

    # ---- VMAs --------------------------------------------------------------
    def _index(self, addr: int) -> int:
        """Index of the VMA holding addr, or -1."""
        i = bisect.bisect_right(self._starts, addr) - 1
        return i if i >= 0 and addr < self.vmas[i].end else -1

    def vma_at(self, addr: int) -> Vma | None:
        i = self._index(addr)
        return self.vmas[i] if i >= 0 else None

    def _reindex(self) -> None:
        self._starts = [v.start for v in self.vmas]

    def _split_at(self, addr: int) -> None:
        i = self._index(addr)
        if i >= 0 and self.vmas[i].start < addr:
            self.vmas[i:i + 1] = self.vmas[i].split(addr)
            self._reindex()

    def _carve(self, start: int, end: int) -> tuple[int, int]:
        """Split VMAs at start and end; the indices [i, j) of those inside."""
        self._split_at(start)
        self._split_at(end)
        i = bisect.bisect_left(self._starts, start)
        j = bisect.bisect_left(self._starts, end)
        return i, j

    def prot_at(self, addr: int) -> int:
        """The guest-visible protection of addr's page (0 if unmapped)."""
        v = self.vma_at(addr)
        return v.prot if v is not None else 0

    # ---- mapping ---------------------------------------------------------
    def map(self, addr: int, size: int, prot: int, *, shared: bool = False, file: MappedFile | None = None,
            offset: int = 0, name: str = "") -> None:
        """Map [addr, addr+size), replacing what was there: zero-filled, or the bytes
        of `file` from `offset`.  No frame is allocated until a page is touched."""
        _check_range(addr, size)
        self.unmap(addr, size)
        i = bisect.bisect_left(self._starts, addr)
        self.vmas.insert(i, Vma(addr, addr + size, prot & 7, shared, file, offset, name))
        self._reindex()
        if shared and file is not None:
            _spaces(self.pool).add(self)

    def unmap(self, addr: int, size: int) -> None:
        first, end = _check_range(addr, size)
        i, j = self._carve(addr, addr + size)
        for v in self.vmas[i:j]:
            self._write_back(v, v.start, v.end)
        del self.vmas[i:j]
        self._reindex()
        self._drop_frames(first, end)

    def _drop_frames(self, first: int, end: int) -> None:
        """Give back the frames of [first, end) (their VMAs' contents are gone or refetched)."""
        self._invalidate_code(first, end)
        for lo, hi in self._spans(first, end):
            rows = self.pt[lo:hi]
            self.pool.decref(rows[rows >= 0])
            self.pt[lo:hi] = -1
            self.perm[lo:hi] = 0

    def move(self, old: int, size: int, new: int) -> None:
        """mremap's move: the mappings of [old, old+size) and their frames go to new
        (which must not overlap them); old becomes unmapped."""
        first, end = _check_range(old, size)
        nfirst, _ = _check_range(new, size)
        i, j = self._carve(old, old + size)
        moved = [Vma(v.start - old + new, v.end - old + new, v.prot, v.shared, v.file, v.offset, v.name)
                 for v in self.vmas[i:j]]
        del self.vmas[i:j]
        self._reindex()
        self._invalidate_code(first, end)
        frames = [(lo, self.pt[lo:hi].copy(), self.perm[lo:hi].copy()) for lo, hi in self._spans(first, end)]
        for lo, rows, perm in frames:
            self.pt[lo:lo + len(rows)] = -1
            self.perm[lo:lo + len(rows)] = 0
        self.unmap(new, size)
        for v in moved:
            self.vmas.insert(bisect.bisect_left(self._starts, v.start), v)
            self._reindex()
        for lo, rows, perm in frames:
            at = lo - first + nfirst
            self.pt[at:at + len(rows)] = rows
            self.perm[at:at + len(rows)] = perm
            self.touched[at >> CHUNK_SHIFT:((at + len(rows) - 1) >> CHUNK_SHIFT) + 1] = True

    def discard(self, addr: int, size: int) -> None:
        """MADV_DONTNEED: drop the frames of private pages, which read back as zero
        (anonymous) or as the file's bytes; shared pages keep their contents."""
        _check_range(addr, size)
        i, j = self._carve(addr, addr + size)
        for v in self.vmas[i:j]:
            if not v.shared:     # shared pages are the file's or the other processes': they stay
                self._drop_frames(v.start >> PAGE_SHIFT, v.end >> PAGE_SHIFT)

    def protect(self, addr: int, size: int, prot: int) -> None:
        """Change permissions; raises GuestFault if part of the range is unmapped."""
        first, end = _check_range(addr, size)
        if not self.is_mapped(addr, size):
            raise GuestFault(addr, "protect")
        i, j = self._carve(addr, addr + size)
        self._invalidate_code(first, end)
        for v in self.vmas[i:j]:
            v.prot = prot & 7
            self._refresh(v)

    def _refresh(self, v: Vma, start: int | None = None, end: int | None = None) -> None:
        """Recompute `perm` of v's pages that have frames (others stay 0)."""
        first = (v.start if start is None else start) >> PAGE_SHIFT
        last = (v.end if end is None else end) >> PAGE_SHIFT
        for lo, hi in self._spans(first, last):
            self.perm[lo:hi] = self._perm_of(v, self.pt[lo:hi])

    def _perm_of(self, v: Vma, rows: np.ndarray) -> np.ndarray:
        have = rows >= 0
        perm = np.where(have, v.prot, 0).astype(np.uint8)
        if v.prot & PROT_WRITE:
            if not v.shared:          # copy-on-write: a frame someone else holds is read-only here
                locked = have & (self.pool.refs[np.where(have, rows, 0)] > 1)
            elif v.file is not None:  # a clean file page: its first write marks it dirty
                dirty = np.fromiter(self.pool.dirty, np.int64, len(self.pool.dirty))
                locked = have & ~np.isin(rows, dirty)
            else:
                return perm
            perm[locked] &= ~PROT_WRITE & 7
        return perm

    def is_mapped(self, addr: int, size: int) -> bool:
        """Every byte of [addr, addr+size) lies in some mapping."""
        return self.accessible(addr, size, 0)

    def accessible(self, addr: int, size: int, prot: int) -> bool:
        """Every byte of [addr, addr+size) is mapped with at least `prot`."""
        if size <= 0:
            return True
        if addr < 0 or addr + size > NPAGES << PAGE_SHIFT:
            return False
        i = self._index(addr)
        end = addr + size
        while i >= 0 and i < len(self.vmas):
            v = self.vmas[i]
            if v.start > addr or v.prot & prot != prot:
                return False
            if v.end >= end:
                return True
            addr = v.end
            i += 1
        return False

    def is_free(self, addr: int, size: int) -> bool:
        """True if no page of [addr, addr+size) is mapped and the range lies in
        guest space above the zero page."""
        if size <= 0:
            return True
        if addr < PAGE_SIZE or addr + size > NPAGES << PAGE_SHIFT:
            return False
        i = bisect.bisect_left(self._starts, addr + size)
        return i == 0 or self.vmas[i - 1].end <= addr

    def find_free(self, size: int, hint: int | None = None) -> int:
        """Lowest free page-aligned range of `size` bytes at or above `hint`
        (default 0x1000_0000); searched upward, then from the bottom."""
        size = (size + PAGE_MASK) & ~PAGE_MASK
        for start in ([hint & ~PAGE_MASK] if hint else []) + [0x1000_0000, PAGE_SIZE]:
            cursor = start
            for v in self.vmas:
                if v.end <= cursor:
                    continue
                if v.start - cursor >= size:
                    return cursor
                cursor = max(cursor, v.end)
            if (NPAGES << PAGE_SHIFT) - cursor >= size:
                return cursor
        raise MemoryError(f"no free guest range of {size:#x} bytes")

    def maps(self) -> str:
        """/proc/self/maps of this address space."""
        return "".join(v.maps_line() + "\n" for v in self.vmas)

    # ---- faults: giving pages their frames --------------------------------
    def resolve(self, addr: int, access: str) -> bool:
        """Make the faulting access possible if a VMA allows it (True: run the
        instruction again); False: the fault is the guest's (SIGSEGV).
        Raises OutOfMemory when a frame is needed and the budget is spent."""
        need = _ACCESS_BIT.get(access)
        if need is None or addr < 0 or addr >= NPAGES << PAGE_SHIFT:
            return False
        v = self.vma_at(addr)
        if v is None or not v.prot & need:
            return False
        page = addr >> PAGE_SHIFT
        if self.pt[page] >= 0 and self.perm[page] & need:
            return False          # not a missing frame or permission (a misaligned pc): the guest's
        self._populate(page, v, need == PROT_WRITE)
        return bool(self.perm[page] & need)

    def _populate(self, page: int, v: Vma, write: bool) -> int:
        """Give the page a frame (and, for a write, one of its own); returns the frame."""
        pool = self.pool
        f = int(self.pt[page])
        if f < 0:
            if v.file is None:
                f = pool.alloc()
            elif v.shared:
                f = self._file_frame(v, page)
            else:
                f = pool.alloc()
                data = v.file.read_page(v.file_offset(page << PAGE_SHIFT))
                pool.frame(f)[:len(data)] = np.frombuffer(data, np.uint8)
            self.pt[page] = f
            self.touched[page >> CHUNK_SHIFT] = True
        if write:
            if not v.shared and pool.refs[f] > 1:
                g = pool.copy(f)
                pool.decref_one(f)
                self.pt[page] = f = g
            elif v.shared and v.file is not None:
                pool.dirty.add(f)
        self.perm[page] = self._perm_of(v, self.pt[page:page + 1])[0]
        return f

    def _file_frame(self, v: Vma, page: int) -> int:
        """The machine-wide frame of a MAP_SHARED file page (read from the file once)."""
        pool = self.pool
        offset = v.file_offset(page << PAGE_SHIFT)
        key = v.file.key + (offset >> PAGE_SHIFT,)
        f = pool.file_frames.get(key)
        if f is not None:
            pool.refs[f] += 1
            return f
        f = pool.alloc()
        data = v.file.read_page(offset)
        pool.frame(f)[:len(data)] = np.frombuffer(data, np.uint8)
        pool.file_frames[key] = f
        pool.frame_key[f] = key
        return f

    # ---- MAP_SHARED files: write-back ----------------------------------------
    def sync(self, addr: int, size: int) -> None:
        """msync: write the dirty shared file pages of the range to their files."""
        i = self._index(addr)
        while 0 <= i < len(self.vmas) and self.vmas[i].start < addr + size:
            v = self.vmas[i]
            self._write_back(v, max(v.start, addr), min(v.end, addr + size))
            i += 1

    def _write_back(self, v: Vma, start: int, end: int) -> None:
        if not (v.shared and v.file is not None) or not self.pool.dirty:
            return
        pool = self.pool
        cleaned = []
        for lo, hi in self._spans(start >> PAGE_SHIFT, end >> PAGE_SHIFT):
            for page in range(lo, hi):
                f = int(self.pt[page])
                if f >= 0 and f in pool.dirty:
                    v.file.write_back(v.file_offset(page << PAGE_SHIFT), pool.frame(f).tobytes())
                    pool.dirty.discard(f)
                    cleaned.append(f)
        if cleaned:       # clean again: every mapping of these pages must see the next write
            for mem in list(_spaces(pool)):
                for w in mem.vmas:
                    if w.shared and w.file is not None and w.file.key == v.file.key:
                        mem._refresh(w)

    def release(self) -> None:
        """The address space ends (exit, exec): write back shared file pages, free frames."""
        if self.released:
            return
        self.released = True
        for v in self.vmas:
            self._write_back(v, v.start, v.end)
        self.vmas, self._starts = [], []
        self._drop_frames(0, NPAGES)
        _spaces(self.pool).discard(self)

    def __del__(self):
        try:
            self.release()
        except Exception:       # interpreter shutdown: nothing left to give back to
            pass

    # ---- host-side access (ignores PROT_WRITE; the loader needs that) -----
    def _row_span(self, addr: int, n: int, access: str):
        """Yield (offset into data, length, guest addr) chunks, faulting if unmapped."""
        end = addr + n
        write = access == "write"
        while addr < end:
            page = addr >> PAGE_SHIFT
            if addr < 0 or page >= NPAGES:
                raise GuestFault(addr, access)
            f = int(self.pt[page])
            if f < 0 or (write and not self.perm[page] & PROT_WRITE):
                v = self.vma_at(addr)
                if v is None:
                    raise GuestFault(addr, access)
                f = self._populate(page, v, write)
            off = addr & PAGE_MASK
            k = min(end - addr, PAGE_SIZE - off)
            yield f * PAGE_SIZE + off, k, addr
            addr += k

    def read(self, addr: int, n: int) -> bytes:
        spans = list(self._row_span(addr, n, "read"))
        data = self.pool.data
        return b"".join(data[o:o + k].tobytes() for o, k, _ in spans)

    def write(self, addr: int, data) -> None:
        data = bytes(data)
        spans = list(self._row_span(addr, len(data), "write"))   # fault before writing
        pos = 0
        pool_data = self.pool.data
        for o, k, a in spans:
            pool_data[o:o + k] = np.frombuffer(data, np.uint8, k, pos)
            page = a >> PAGE_SHIFT
            if self.dc_row[page] >= 0:
                self.dc_op[self.dc_row[page]] = -1
            pos += k

    def read_u64(self, addr: int) -> int:
        return int.from_bytes(self.read(addr, 8), "little")

    def write_u64(self, addr: int, v: int) -> None:
        self.write(addr, (v & (2**64 - 1)).to_bytes(8, "little"))

    def read_cstring(self, addr: int, limit: int = 4096) -> bytes:
        """Bytes up to (not including) the first NUL, at most `limit` bytes."""
        out = bytearray()
        while len(out) < limit:
            page_left = PAGE_SIZE - (addr & PAGE_MASK)
            chunk = self.read(addr, min(page_left, limit - len(out)))
            i = chunk.find(b"\0")
            if i >= 0:
                return bytes(out + chunk[:i])
            out += chunk
            addr += len(chunk)
        return bytes(out)

    # ---- fork ----------------------------------------------------------------------
    def private_resident(self) -> int:
        """Pages with a frame in private writable mappings: what a fork might have to copy."""
        n = 0
        for v in self.vmas:
            if not v.shared and v.prot & PROT_WRITE:
                for lo, hi in self._spans(v.start >> PAGE_SHIFT, v.end >> PAGE_SHIFT):
                    n += int((self.pt[lo:hi] >= 0).sum())
        return n

    def fork(self) -> "Memory":
        """The child's address space: the same mappings over the same frames.
        Private writable pages become copy-on-write in both (a write gets its
        own frame); shared ones stay shared.  The child starts with a small,
        empty decode cache."""
        child = Memory.__new__(Memory)
        child.pool = self.pool
        child.pt = _minus_ones(NPAGES)
        child.perm = np.zeros(NPAGES, np.uint8)
        child.touched = self.touched.copy()
        child.dc_row = _minus_ones(NPAGES)
        child._dc_alloc(4)
        child.dc_meta = np.zeros(2, np.int64)
        child.vmas = [Vma(v.start, v.end, v.prot, v.shared, v.file, v.offset, v.name) for v in self.vmas]
        child._reindex()
        child._arrays = None
        child.released = False
        for v in self.vmas:
            if not v.shared and v.prot & PROT_WRITE:
                for lo, hi in self._spans(v.start >> PAGE_SHIFT, v.end >> PAGE_SHIFT):
                    self.perm[lo:hi] &= ~PROT_WRITE & 7
        for lo, hi in self._spans(0, NPAGES):
            rows = self.pt[lo:hi]
            self.pool.incref(rows[rows >= 0])
            child.pt[lo:hi] = rows
            child.perm[lo:hi] = self.perm[lo:hi]
        if any(v.shared and v.file is not None for v in self.vmas):
            _spaces(self.pool).add(child)
        return child


_SPACES: "weakref.WeakKeyDictionary[FramePool, weakref.WeakSet]" = weakref.WeakKeyDictionary()


def _spaces(pool: FramePool) -> "weakref.WeakSet[Memory]":
    """The address spaces of a pool that map shared files (write-back re-protects their pages)."""
    s = _SPACES.get(pool)
    if s is None:
        s = _SPACES[pool] = weakref.WeakSet()
    return s
