"""Guest memory: mapping, permissions, faults, fork, cross-page access."""
import struct

import pytest

from ncpu.arm64.cpu import Cpu, CpuState, GuestFault, Memory, StopReason
from ncpu.arm64.cpu.memory import PROT_EXEC, PROT_READ, PROT_WRITE

RW = PROT_READ | PROT_WRITE


def test_map_is_zero_filled_and_readable():
    m = Memory()
    m.map(0x10000, 0x3000, RW)
    assert m.read(0x10000, 0x3000) == bytes(0x3000)
    assert m.is_mapped(0x10000, 0x3000) and not m.is_mapped(0x10000, 0x3001)


def test_write_read_across_pages():
    m = Memory()
    m.map(0x10000, 0x2000, RW)
    data = bytes(range(200))
    m.write(0x10FA0, data)
    assert m.read(0x10FA0, 200) == data
    m.write_u64(0x10FFC, 0x1122334455667788)
    assert m.read_u64(0x10FFC) == 0x1122334455667788


def test_unmapped_access_raises_guest_fault():
    m = Memory()
    m.map(0x10000, 0x1000, RW)
    with pytest.raises(GuestFault) as e:
        m.read(0x10FF0, 0x20)
    assert e.value.address == 0x11000 and e.value.access == "read"
    with pytest.raises(GuestFault):
        m.write(0x20000, b"x")


def test_unmap_and_remap_zeroes():
    m = Memory()
    m.map(0x10000, 0x2000, RW)
    m.write(0x10000, b"hello")
    m.unmap(0x10000, 0x1000)
    assert not m.is_mapped(0x10000, 1) and m.is_mapped(0x11000, 1)
    m.map(0x10000, 0x1000, RW)
    assert m.read(0x10000, 5) == bytes(5)


def test_host_write_ignores_prot_write_and_protect_changes_guest_view():
    m = Memory()
    m.map(0x10000, 0x1000, PROT_READ)
    m.write(0x10000, b"ro")            # loader may write read-only pages
    assert m.read(0x10000, 2) == b"ro"
    m.protect(0x10000, 0x1000, RW)
    assert m.perm[0x10] == RW


def test_fork_is_independent():
    m = Memory()
    m.map(0x10000, 0x1000, RW)
    m.write(0x10000, b"parent")
    c = m.fork()
    c.write(0x10000, b"child!")
    assert m.read(0x10000, 6) == b"parent" and c.read(0x10000, 6) == b"child!"
    c.map(0x20000, 0x1000, RW)
    assert not m.is_mapped(0x20000, 1)


def test_find_free_and_cstring():
    m = Memory()
    a = m.find_free(0x5000)
    m.map(a, 0x5000, RW)
    b = m.find_free(0x1000, hint=a)
    assert b >= a + 0x5000 and not m.is_mapped(b, 0x1000)
    m.write(a + 0xFFE, b"abc\0def")
    assert m.read_cstring(a + 0xFFE) == b"abc"
    assert m.read_cstring(a + 0xFFE, limit=2) == b"ab"


def test_outside_guest_space_rejected():
    m = Memory()
    with pytest.raises(ValueError):
        m.map(1 << 32, 0x1000, RW)
    assert not m.is_mapped((1 << 32) - 0x1000, 0x2000)


def _run(words, setup=None, data_prot=RW):
    m = Memory()
    m.map(0x10000, 0x1000, PROT_READ | PROT_EXEC)
    m.write(0x10000, b"".join(struct.pack("<I", w) for w in words))
    m.map(0x20000, 0x2000, data_prot)
    s = CpuState()
    s.pc = 0x10000
    if setup:
        setup(m, s)
    cpu = Cpu(m, s)
    return cpu.run(1000), s, m


def test_cpu_unaligned_load_across_page():
    def setup(m, s):
        m.write(0x20FFC, bytes(range(1, 9)))
        s.x[1] = 0x20FFC
    stop, s, _ = _run([0xF9400020, 0xD4000001], setup)        # ldr x0, [x1]; svc 0
    assert stop.reason is StopReason.SVC
    assert int(s.x[0]) == int.from_bytes(bytes(range(1, 9)), "little")


def test_cpu_store_to_readonly_faults_precisely():
    def setup(m, s):
        s.x[1] = 0x20008
        s.x[0] = 7
    stop, s, m = _run([0xF9000020, 0xD4000001], setup, data_prot=PROT_READ)   # str x0, [x1]
    assert stop.reason is StopReason.FAULT and stop.access == "write" and stop.address == 0x20008
    assert s.pc == 0x10000 and stop.steps == 0
    assert m.read_u64(0x20008) == 0


def test_cpu_load_unmapped_and_exec_fault():
    def setup(m, s):
        s.x[1] = 0x50000
    stop, s, _ = _run([0xF9400020], setup)
    assert stop.reason is StopReason.FAULT and stop.access == "read" and stop.address == 0x50000
    def setup2(m, s):
        s.x[1] = 0x20000        # data page is not executable
    stop, s, _ = _run([0xD61F0020], setup2)                    # br x1
    assert stop.reason is StopReason.FAULT and stop.access == "exec" and stop.address == 0x20000
