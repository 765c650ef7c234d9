"""CASP / CASPA / CASPL / CASPAL (LSE compare and swap of a register pair).

Aligned pairs against unicorn, both sizes and all four orderings, with the
memory pair equal to (Rs, Rs+1), differing in its first word, its second
word or both; register pairs that end in XZR (30, 31) and SP as the base.
Each case is also checked against the architectural result directly.  Then
our own rules: odd Rs/Rt are unallocated, a misaligned pair raises the
alignment fault (SIGBUS under Linux, as qemu-user) and a read-only pair
faults on write even when the comparison fails.
"""
import itertools
import random
import struct

import pytest

import arm64cpu_harness as H
from ncpu.arm64.cpu import StopReason
from ncpu.arm64.cpu import decode_table as T
from ncpu.arm64.cpu.decoder import decode
from ncpu.arm64.cpu.disasm import disassemble_word

import unicorn  # noqa: F401  (a test dependency: fail, never skip, when it is missing)

CASP = T.BY_NAME["CASP"]
U64 = H.U64


def casp(sz, l, o0, rs, rt, rn):
    return CASP.encode(sz=sz, l=l, rs=rs, o0=o0, rn=rn, rt=rt)


# (rs, rt, rn): plain, pairs ending in XZR, SP as base, Rs pair == Rt pair
REGS = [(0, 2, 4), (30, 6, 7), (8, 30, 9), (10, 12, 31), (14, 14, 15)]
MODES = ["equal", "first differs", "second differs", "both differ"]


def _cases():
    for sz, l, o0 in itertools.product((0, 1), (0, 1), (0, 1)):
        for regs, mode in itertools.product(REGS, MODES):
            yield sz, l, o0, regs, mode


def _reg(xs, sp, r, base=False):
    if r == 31:
        return sp if base else 0
    return xs[r]


@pytest.mark.parametrize("case", list(_cases()),
                         ids=lambda c: f"sz{c[0]}-l{c[1]}-o{c[2]}-{c[3]}-{c[4].replace(' ', '_')}")
def test_casp_matches_unicorn(case):
    sz, l, o0, (rs, rt, rn), mode = case
    n = 8 if sz else 4
    mask = (1 << (8 * n)) - 1
    rng = random.Random(repr(case))
    w = casp(sz, l, o0, rs, rt, rn)
    assert int(decode(w)) == T.BY_NAME_ID["CASP"]
    # 32-bit pairs need only 8-byte alignment: use an address that is not 16-aligned
    addr = H.MID + 16 * rng.randrange(1, 8) + (8 if n == 4 else 0)
    assert addr % (2 * n) == 0 and (n == 8 or addr % 16 == 8)
    xs = [rng.getrandbits(64) for _ in range(31)]
    sp = H.MID - 64
    if rn == 31:
        sp = addr
    else:
        xs[rn] = addr
    s1, s2 = _reg(xs, sp, rs) & mask, _reg(xs, sp, rs + 1) & mask
    m1, m2 = s1, s2
    if mode in ("first differs", "both differ"):
        m1 = (s1 ^ (1 << rng.randrange(8 * n))) & mask
    if mode in ("second differs", "both differ"):
        m2 = (s2 ^ (1 << rng.randrange(8 * n))) & mask
    fmt = "<II" if n == 4 else "<QQ"
    init = bytearray(rng.getrandbits(8) for _ in range(H.SCRATCH_SIZE))
    init[addr - H.SCRATCH:addr - H.SCRATCH + 2 * n] = struct.pack(fmt, m1, m2)
    vs = [(0, 0)] * 32
    uc, us = H.Unicorn(), H.Ours()
    uc.uc.mem_write(H.SCRATCH, bytes(init))
    us.mem.write(H.SCRATCH, bytes(init))
    uc.set_state(xs, sp, 0, vs)
    us.set_state(xs, sp, 0, vs)
    err, uv, _ = uc.step(w)
    stop, ov, _ = us.step(w)
    text = disassemble_word(w)
    assert err is None, f"{text}: unicorn {err}"
    assert stop.reason is StopReason.BUDGET, f"{text}: ours {stop}"
    diffs = [f"{H.REG_NAMES[i]}: uc={a:#x} ours={b:#x}" for i, (a, b) in enumerate(zip(uv, ov)) if a != b]
    assert not diffs, f"{text} ({mode}): " + "; ".join(diffs)
    um = bytes(uc.uc.mem_read(H.SCRATCH, H.SCRATCH_SIZE))
    om = us.mem.read(H.SCRATCH, H.SCRATCH_SIZE)
    assert um == om, f"{text} ({mode}): memory differs"
    # the architectural result, independently of unicorn
    t1, t2 = _reg(xs, sp, rt) & mask, _reg(xs, sp, rt + 1) & mask
    want_mem = (t1, t2) if mode == "equal" else (m1, m2)
    got = struct.unpack(fmt, om[addr - H.SCRATCH:addr - H.SCRATCH + 2 * n])
    assert got == want_mem, (text, mode)
    want_x = list(xs)
    want_x[rs] = m1
    if rs + 1 != 31:
        want_x[rs + 1] = m2
    assert ov[:31] == want_x and ov[31] == sp and ov[32] == H.CODE + 4, (text, mode)
    assert om[:addr - H.SCRATCH] == init[:addr - H.SCRATCH]
    assert om[addr - H.SCRATCH + 2 * n:] == init[addr - H.SCRATCH + 2 * n:]


@pytest.mark.parametrize("sz", (0, 1))
def test_casp_odd_registers_are_unallocated(sz):
    for rs, rt in ((1, 2), (2, 1), (3, 5), (31, 0), (0, 31)):
        w = casp(sz, 0, 0, rs, rt, 4)
        assert int(decode(w)) < 0, hex(w)
        us = H.Ours()
        us.set_state([H.MID] * 31, H.MID, 0, [(0, 0)] * 32)
        stop, _, _ = us.step(w)
        assert stop.reason is StopReason.UNDEFINED, (hex(w), stop)
        uc = H.Unicorn()
        uc.set_state([H.MID] * 31, H.MID, 0, [(0, 0)] * 32)
        err, _, _ = uc.step(w)
        assert err is not None and "EXCEPTION" in str(err), (hex(w), err)
    # Rt2 (bits 14:10) must be 11111: otherwise it is not CASP (nor anything we run)
    w = casp(sz, 0, 0, 0, 2, 4) & ~(1 << 10)
    assert int(decode(w)) < 0


@pytest.mark.parametrize("sz,l,o0", list(itertools.product((0, 1), (0, 1), (0, 1))))
def test_casp_misaligned_pair_faults(sz, l, o0):
    n = 8 if sz else 4
    for off in range(1, 2 * n):
        addr = H.MID + off
        w = casp(sz, l, o0, 0, 2, 4)
        us = H.Ours()
        before = us.mem.read(H.SCRATCH, H.SCRATCH_SIZE)
        xs = [0] * 31
        xs[4] = addr
        us.set_state(xs, H.MID, 0, [(0, 0)] * 32)     # (x0, x1) == (0, 0) == memory: would swap
        stop, ov, _ = us.step(w)
        assert stop.reason is StopReason.FAULT and stop.access == "align", (off, stop)
        assert stop.address == addr and ov[32] == H.CODE and ov[:31] == xs
        assert us.mem.read(H.SCRATCH, H.SCRATCH_SIZE) == before


@pytest.mark.parametrize("sz", (0, 1))
def test_casp_read_only_pair_faults_even_when_unequal(sz):
    us = H.Ours()
    us.mem.protect(H.SCRATCH, H.SCRATCH_SIZE, 1)
    xs = [0] * 31
    xs[4] = H.MID
    xs[0] = 1                                          # differs from the zero memory
    us.set_state(xs, H.MID, 0, [(0, 0)] * 32)
    stop, ov, _ = us.step(casp(sz, 1, 1, 0, 2, 4))
    assert stop.reason is StopReason.FAULT and stop.access == "write", stop
    assert ov[:31] == xs and ov[32] == H.CODE


def test_casp_disassembly():
    assert disassemble_word(casp(0, 0, 0, 0, 2, 4)) == "casp w0, w1, w2, w3, [x4]"
    assert disassemble_word(casp(1, 1, 1, 30, 28, 31)) == "caspal x30, xzr, x28, x29, [sp]"
    assert disassemble_word(casp(0, 1, 0, 4, 30, 3)) == "caspa w4, w5, w30, wzr, [x3]"
    assert disassemble_word(casp(1, 0, 1, 6, 8, 9)) == "caspl x6, x7, x8, x9, [x9]"
