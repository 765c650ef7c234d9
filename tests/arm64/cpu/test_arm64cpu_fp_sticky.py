"""The FP rows skip their inexactness test when IXC is already set and the result is
normal (fpu.flags_settled): the flags must be what the full test gives, IXC added.

Each instruction runs twice through the loop on the same operands: with FPSR = 0 (the
full flag computation) and with FPSR = IXC (where the skip applies); the second FPSR
must equal the first with IXC set, and the results must be equal.  Operands are drawn
to reach every flag: tiny, huge, zero, infinite and ordinary values of both signs."""
import random
import struct

import pytest

from ncpu.arm64.cpu import Cpu, CpuState, Memory, StopReason

CODE = 0x10000
IXC = 16
KINDS = {
    "fadd d": 0x1E622820, "fsub d": 0x1E623820, "fmul d": 0x1E620820, "fdiv d": 0x1E621820,
    "fnmul d": 0x1E628820, "fmadd d": 0x1F420C20, "fmsub d": 0x1F428C20, "fnmadd d": 0x1F620C20,
    "fadd s": 0x1E222820, "fmul s": 0x1E220820, "fdiv s": 0x1E221820, "fmadd s": 0x1F020C20,
}


def _value(rng, dbl):
    pick = rng.random()
    big, tiny = (1e308, 1e-308) if dbl else (3e38, 1e-38)
    if pick < 0.1:
        x = rng.choice([0.0, float("inf")])
    elif pick < 0.3:
        x = tiny * rng.random() * 4
    elif pick < 0.5:
        x = big * rng.random()
    else:
        x = rng.uniform(-1e6, 1e6) * 2.0 ** rng.randrange(-40, 40)
    x = -x if rng.random() < 0.5 else x
    if dbl:
        return struct.unpack("<Q", struct.pack("<d", x))[0]
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _run(word, regs, fpsr):
    m = Memory()
    m.map(CODE, 0x1000, 5)
    m.write(CODE, struct.pack("<2I", word, 0xD4000001))
    s = CpuState()
    s.pc = CODE
    for r, v in enumerate(regs):
        s.v[r + 1] = (v, 0)
    s.fpsr = fpsr
    assert Cpu(m, s).run(10).reason is StopReason.SVC
    return int(s.v[0][0]), int(s.fpsr)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_flags_with_ixc_already_set(kind):
    rng = random.Random(kind)
    dbl = kind.endswith("d")
    for _ in range(60):
        regs = [_value(rng, dbl) for _ in range(3)]          # v1, v2, v3 (d0 = d1 op d2 [+ d3])
        r0, f0 = _run(KINDS[kind], regs, 0)
        r1, f1 = _run(KINDS[kind], regs, IXC)
        assert r1 == r0
        assert f1 == f0 | IXC, (kind, [hex(v) for v in regs], f0, f1)
