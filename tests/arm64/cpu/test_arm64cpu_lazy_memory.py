"""Guest memory as physical frames: lazy pages, copy-on-write fork, shared and file
mappings, the memory budget, /proc/self/maps lines (no compiled code runs here)."""
import os

import pytest

from ncpu.arm64.cpu import GuestFault, Memory
from ncpu.arm64.cpu.frames import FramePool, OutOfMemory
from ncpu.arm64.cpu.memory import PROT_EXEC, PROT_READ, PROT_WRITE
from ncpu.arm64.cpu.vma import MappedFile

RW = PROT_READ | PROT_WRITE
PAGE = 4096


def test_mapping_costs_no_frame_until_touched():
    m = Memory()
    m.map(0x1000_0000, 2000 << 20, RW)              # 2,000 MiB
    assert m.pool.used == 0 and m.is_mapped(0x1000_0000, 2000 << 20)
    assert m.read(0x1000_0000 + (1 << 30), 4) == bytes(4)
    m.write(0x1000_0000 + 123, b"x")
    assert m.pool.used == 2                          # the two pages touched, nothing else
    assert int(m.touched.sum()) == 2                 # page-table chunks the host had to commit


def test_resolve_follows_the_mapping_protection():
    m = Memory()
    m.map(0x10000, PAGE, PROT_READ)
    assert m.resolve(0x10008, "read") and m.pool.used == 1
    assert not m.resolve(0x10008, "write")           # the guest's own fault: SIGSEGV
    assert not m.resolve(0x10008, "exec")
    assert not m.resolve(0x20000, "read")            # nothing mapped there
    m.protect(0x10000, PAGE, PROT_READ | PROT_EXEC)
    assert m.perm[0x10] == PROT_READ | PROT_EXEC     # mprotect reaches the loop's permissions at once
    assert not m.resolve(0x10000, "exec")            # so an exec fault there (a misaligned pc) is the guest's


def test_fork_shares_frames_and_copies_on_write():
    m = Memory()
    m.map(0x10000, 3 * PAGE, RW)
    m.write(0x10000, b"A" * (3 * PAGE))
    used = m.pool.used
    c = m.fork()
    assert m.pool.used == used                       # no frame copied
    assert m.perm[0x10] == c.perm[0x10] == PROT_READ  # write-protected in both
    assert m.prot_at(0x10000) == RW                  # what the guest sees is unchanged
    assert c.resolve(0x10000, "write")               # the child's write copies one page
    assert m.pool.used == used + 1 and c.pt[0x10] != m.pt[0x10] and c.pt[0x11] == m.pt[0x11]
    c.write(0x10000, b"child")
    assert m.read(0x10000, 5) == b"AAAAA" and c.read(0x10000, 5) == b"child"
    m.write(0x11000, b"parent")                      # host writes copy too
    assert c.read(0x11000, 6) == b"AAAAAA"
    c.release()
    assert m.pool.used == used                       # the child's copy went back to the pool
    assert m.resolve(0x12000, "write") and m.pool.used == used   # last owner: writes in place


def test_shared_anonymous_memory_stays_shared_after_fork():
    m = Memory()
    m.map(0x10000, PAGE, RW, shared=True)
    m.write(0x10000, b"1")
    c = m.fork()
    assert c.perm[0x10] == RW
    c.write(0x10000, b"2")
    assert m.read(0x10000, 1) == b"2"


def test_file_mappings_private_and_shared(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"abc" * 3000)
    fd = os.open(path, os.O_RDWR)
    try:
        m = Memory()
        m.map(0x10000, 3 * PAGE, PROT_READ | PROT_WRITE, file=MappedFile(fd, "/f"))
        m.map(0x20000, 3 * PAGE, PROT_READ | PROT_WRITE, shared=True, file=MappedFile(fd, "/f"))
        assert m.read(0x10000, 6) == b"abcabc" and m.read(0x12000 + 900, 4) == bytes(4)   # past EOF: zero
        m.write(0x10000, b"PRIV")
        m.write(0x20000 + PAGE, b"SHAR")
        assert m.read(0x20000, 3) == b"abc" and path.read_bytes()[PAGE:PAGE + 4] != b"SHAR"
        m.sync(0x20000, 3 * PAGE)
        data = path.read_bytes()
        assert data[:4] == b"abca" and data[PAGE:PAGE + 4] == b"SHAR" and len(data) == 9000   # not extended
        assert m.perm[0x21] == PROT_READ             # clean again: the next write is seen
        other = Memory(pool=m.pool)                  # a second process maps the same file: same frames
        other.map(0x30000, PAGE, PROT_READ, shared=True, file=MappedFile(fd, "/f"), offset=PAGE)
        assert other.read(0x30000, 4) == b"SHAR" and other.pt[0x30] == m.pt[0x21]
        m.write(0x20000 + PAGE, b"MORE")
        assert other.read(0x30000, 4) == b"MORE"
        m.release()                                  # exit writes back
        assert path.read_bytes()[PAGE:PAGE + 4] == b"MORE"
    finally:
        os.close(fd)


def test_discard_and_move():
    m = Memory()
    m.map(0x10000, 2 * PAGE, RW)
    m.write(0x10000, b"x" * (2 * PAGE))
    m.discard(0x11000, PAGE)
    assert m.read(0x10fff, 2) == b"x\0" and m.pool.used == 2     # read of the dropped page: a fresh zero one
    m.move(0x10000, 2 * PAGE, 0x50000)
    assert not m.is_mapped(0x10000, 1) and m.read(0x50000, 1) == b"x" and m.pool.used == 2


def test_budget_is_a_clean_error():
    pool = FramePool(budget=4 * PAGE)
    m = Memory(pool=pool)
    m.map(0x10000, 16 * PAGE, RW)                    # mapping is free
    m.write(0x10000, bytes(4 * PAGE))
    with pytest.raises(OutOfMemory):
        m.write(0x14000, b"!")
    m.unmap(0x10000, PAGE)
    m.write(0x14000, b"!")                           # a freed frame is reused (and zeroed)
    assert m.read(0x14000, 2) == b"!\0"
    with pytest.raises(GuestFault):
        m.read(0x90000, 1)


def test_maps_lines_follow_the_mappings(tmp_path):
    path = tmp_path / "lib.so"
    path.write_bytes(bytes(2 * PAGE))
    fd = os.open(path, os.O_RDONLY)
    m = Memory()
    m.map(0x400000, 2 * PAGE, PROT_READ | PROT_EXEC, file=MappedFile(fd, "/lib.so"), offset=0)
    os.close(fd)
    m.map(0x10000000, 4 * PAGE, RW, name="[heap]")
    m.protect(0x10001000, PAGE, PROT_READ)
    lines = m.maps().splitlines()
    st = os.stat(path)
    assert lines[0].split() == ["00400000-00402000", "r-xp", "00000000",
                                f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}", str(st.st_ino), "/lib.so"]
    assert lines[0].index("/lib.so") == 73                  # Linux pads the path to column 73
    assert [line.split()[:2] for line in lines[1:]] == [["10000000-10001000", "rw-p"], ["10001000-10002000", "r--p"],
                                                        ["10002000-10004000", "rw-p"]]
    assert lines[1].endswith("[heap]")
