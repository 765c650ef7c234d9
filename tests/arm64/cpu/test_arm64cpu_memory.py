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


# store; load back (x2 / the pair x6,x7 / q1 / q2,q3), each at unaligned offsets inside a page and across its end
UNALIGNED_KINDS = {
    "x": ([0xF9000020, 0xF9400022], 8),          # str x0, [x1]; ldr x2, [x1]
    "w": ([0xB9000020, 0xB9400022], 4),          # str w0, [x1]; ldr w2, [x1]
    "h": ([0x79000020, 0x79400022], 2),          # strh w0, [x1]; ldrh w2, [x1]
    "sh": ([0x79000020, 0x79800022], 2),         # strh w0, [x1]; ldrsh x2, [x1]
    "xpair": ([0xA9001420, 0xA9401C26], 16),     # stp x0, x5, [x1]; ldp x6, x7, [x1]
    "q": ([0x3D800020, 0x3DC00021], 16),         # str q0, [x1]; ldr q1, [x1]
    "qpair": ([0xAD008420, 0xAD408C22], 32),     # stp q0, q1, [x1, #16]; ldp q2, q3, [x1, #16]
}


@pytest.mark.parametrize("kind", sorted(UNALIGNED_KINDS))
@pytest.mark.parametrize("offset", [0x801, 0x803, 0x805, 0x807, 0x80F, 0xFE1, 0xFF9, 0xFFD, 0xFFF])
def test_cpu_unaligned_store_and_load(kind, offset):
    words, n = UNALIGNED_KINDS[kind]
    x0, x5 = 0x8877665544332211, 0x0FEDCBA987654321
    v0, v1 = (0x1122334455667788, 0x99AABBCCDDEEFF00), (0x0102030405060708, 0xF1F2F3F4F5F6F7F8)
    addr = 0x20000 + offset - (16 if kind == "qpair" else 0)

    def setup(m, s):
        m.write(0x20000, bytes(range(256)) * 32)
        s.x[0], s.x[5], s.x[1] = x0, x5, addr
        s.v[0], s.v[1] = v0, v1
    stop, s, m = _run(words + [0xD4000001], setup)
    assert stop.reason is StopReason.SVC
    le = lambda v, k: (v & ((1 << 8 * k) - 1)).to_bytes(k, "little")   # noqa: E731
    stored = {"x": le(x0, 8), "w": le(x0, 4), "h": le(x0, 2), "sh": le(x0, 2), "xpair": le(x0, 8) + le(x5, 8),
              "q": le(v0[0], 8) + le(v0[1], 8),
              "qpair": le(v0[0], 8) + le(v0[1], 8) + le(v1[0], 8) + le(v1[1], 8)}[kind]
    start = 0x20000 + offset
    assert m.read(start, n) == stored
    assert m.read(start - 1, 1) == bytes([(offset - 1) & 0xFF]) and m.read(start + n, 1) == bytes([(offset + n) & 0xFF])
    if kind == "sh":
        assert int(s.x[2]) == 0x2211
    elif kind in ("x", "w", "h"):
        assert int(s.x[2]) == int.from_bytes(stored, "little")
    elif kind == "xpair":
        assert (int(s.x[6]), int(s.x[7])) == (x0, x5)
    elif kind == "q":
        assert tuple(int(x) for x in s.v[1]) == v0
    else:
        assert (tuple(int(x) for x in s.v[2]), tuple(int(x) for x in s.v[3])) == (v0, v1)


# Vector structure loads and stores (exec_vstruct): (row, fields, bytes accessed) with x1 the base.
STRUCTURES = {
    "st4_4s": ("ST4_m", dict(q=1, size=2, vt=0), 64),
    "ld4_4s": ("LD4_m", dict(q=1, size=2, vt=4), 64),
    "st1_16b_x4": ("ST1_m4", dict(q=1, size=0, vt=0), 64),
    "ld1_8b_x3": ("LD1_m3", dict(q=0, size=0, vt=4), 24),
    "st3_lane_s": ("ST3_e", dict(q=1, sc=2, s=1, size=0, vt=0), 12),
    "ld2_lane_h": ("LD2_e", dict(q=1, sc=1, s=0, size=2, vt=4), 4),
    "ld3r_8h": ("LD3R", dict(q=1, size=1, vt=4), 6),
    "ld2_8h_post": ("LD2_m_POST", dict(q=1, size=1, vt=4, rm=31), 32),
}


def _structure(kind, addr, data_size=0x2000):
    """Run one structure instruction at `addr` (the bytes there: a pattern) and return
    (stop, x1, the vector registers, the bytes accessed)."""
    from ncpu.arm64.cpu import decode_table as T
    name, fields, n = STRUCTURES[kind]
    w = T.BY_NAME[name].encode(rn=1, **fields)
    m = Memory()
    m.map(0x10000, 0x1000, PROT_READ | PROT_EXEC)
    m.write(0x10000, struct.pack("<II", w, 0xD4000001))               # the instruction; svc 0
    m.map(0x20000, data_size, RW)
    pattern = bytes((7 * j + 3) & 0xFF for j in range(n))
    m.write(addr, pattern[:max(0, 0x20000 + data_size - addr)])
    s = CpuState()
    s.pc = 0x10000
    s.x[1] = addr
    for r in range(32):
        s.v[r] = (0x0101010101010101 * (r + 1), 0x1111111111111111 * (r % 15 + 1))
    stop = Cpu(m, s).run(10)
    accessed = m.read(addr, min(n, 0x20000 + data_size - addr))
    return stop, int(s.x[1]) - addr, s.v.tolist(), accessed


@pytest.mark.parametrize("kind", sorted(STRUCTURES))
def test_cpu_vector_structures_across_a_page(kind):
    """Across the end of a page (the general path, element by element) the same result as
    inside one page (the direct path); into an unmapped page a fault at its first byte,
    with no register and no byte changed (the instruction restarts)."""
    n = STRUCTURES[kind][2]
    inside = _structure(kind, 0x20101)
    assert inside[0].reason is StopReason.SVC and inside[0].steps == 2
    for addr in (0x21000 - n // 2, 0x21000 - n // 2 - 1, 0x20FFF):
        stop, *got = _structure(kind, addr)
        assert stop.reason is StopReason.SVC and got == list(inside[1:]), hex(addr)
        stop, x1, v, accessed = _structure(kind, addr, data_size=0x1000)
        assert stop.reason is StopReason.FAULT and stop.address == 0x21000 and stop.steps == 0, hex(addr)
        assert x1 == 0 and accessed == bytes((7 * j + 3) & 0xFF for j in range(len(accessed)))
        assert v == [[0x0101010101010101 * (r + 1), 0x1111111111111111 * (r % 15 + 1)] for r in range(32)]
