"""Random instruction sequences against unicorn: values flow from one instruction to the next.

See arm64cpu_sequences for the generator. The single-instruction test
(test_arm64cpu_unicorn) starts every word from a fresh random state; here
flags, registers, FPSR, the exclusive monitor and memory written by one
instruction are what the next ones read. A divergence is reported with the
shortest diverging prefix of the program, disassembled.
"""
import pytest

import arm64cpu_sequences as S

import unicorn  # noqa: F401  (a test dependency: fail, never skip, when it is missing)

# (classes, sequences, length): all classes, then integer-only (dense flag and register
# chains through CSEL/CCMP/ADC/B.cond), then memory with integer (stores read back by
# loads of other widths, writeback bases, exclusives)
DEFAULT = {"all": (S.CLASSES, 500, 24), "int": (("int",), 300, 16), "mem": (("mem", "int"), 300, 16)}


@pytest.mark.parametrize("name", list(DEFAULT))
def test_sequences_match_unicorn(name):
    classes, n, length = DEFAULT[name]
    instructions, completed, bad = S.compare_sequences(n, length, seed=sum(map(ord, name)), classes=classes)
    assert completed > n // 2, completed          # most programs run to the end (the rest fault on both)
    assert not bad, f"{len(bad)}/{n} sequences diverge:\n" + "\n".join(bad[:10])


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_sequences_match_unicorn_long(seed):
    instructions, completed, bad = S.compare_sequences(3000, 32, seed=100 + seed)
    assert not bad, f"{len(bad)}/3000 sequences diverge:\n" + "\n".join(bad[:10])
