"""swar.py's whole-word lane arithmetic against lane-by-lane arithmetic, on random
words and on every edge lane value, for every lane size."""
import numpy as np
import pytest

from ncpu.arm64.cpu.swar import (bytes_from, lanes_add, lanes_asr, lanes_eq_zero, lanes_even, lanes_interleave,
                                 lanes_lsr, lanes_shl, lanes_sub, lanes_widen, tops)

M64 = (1 << 64) - 1


def _lanes(x, sz):
    e = 8 << sz
    return [(x >> (e * i)) & ((1 << e) - 1) for i in range(64 // e)]


def _word(lanes, sz):
    e = 8 << sz
    return sum((v & ((1 << e) - 1)) << (e * i) for i, v in enumerate(lanes))


def _s64(x):
    x &= M64
    return x - (1 << 64) if x >> 63 else x


def _words(seed):
    rng = np.random.default_rng(seed)
    edges = [0, M64, 1 << 63, (1 << 63) - 1, 0x8080808080808080, 0x7F7F7F7F7F7F7F7F, 0x0101010101010101,
             0x8000800080008000, 0xFFFF0000FFFF0000, 0x00000000FFFFFFFF]
    return edges + [int(v) for v in rng.integers(0, 1 << 63, 300, dtype=np.uint64) * 2 + rng.integers(0, 2, 300)]


@pytest.mark.parametrize("sz", range(4))
def test_add_sub_and_equality_match_lane_by_lane(sz):
    e = 8 << sz
    h = tops(sz)
    words = _words(sz)
    pairs = [(x, y) for x in words[:10] for y in words[:10]] + list(zip(words, reversed(words)))
    for x, y in pairs:
        lx, ly = _lanes(x, sz), _lanes(y, sz)
        assert lanes_add(_s64(x), _s64(y), h) & M64 == _word([a + b for a, b in zip(lx, ly)], sz)
        assert lanes_sub(_s64(x), _s64(y), h) & M64 == _word([a - b for a, b in zip(lx, ly)], sz)
        assert lanes_eq_zero(_s64(x ^ y), h, sz) & M64 == _word([(1 << e) - 1 if a == b else 0
                                                               for a, b in zip(lx, ly)], sz)


def _signed(v, e):
    return v - (1 << e) if v >> (e - 1) else v


@pytest.mark.parametrize("sz", range(4))
def test_shifts_by_an_immediate_match_lane_by_lane(sz):
    """Every shift amount the encodings allow: left 0 .. e-1, right 1 .. e (and 0)."""
    e = 8 << sz
    words = _words(10 + sz)[:40]
    for sh in range(e + 1):
        for x in words:
            lx = _lanes(x, sz)
            if sh < e:
                assert lanes_shl(_s64(x), sh, sz) & M64 == _word([v << sh for v in lx], sz), (hex(x), sh)
            assert lanes_lsr(_s64(x), sh, sz) & M64 == _word([v >> sh for v in lx], sz), (hex(x), sh)
            assert lanes_asr(_s64(x), sh, sz) & M64 == _word([_signed(v, e) >> sh for v in lx], sz), (hex(x), sh)


@pytest.mark.parametrize("sz", range(3))
def test_widening_narrowing_and_interleaving_match_lane_by_lane(sz):
    e = 8 << sz
    words = _words(20 + sz)
    for x, y in zip(words, reversed(words)):
        lo = _lanes(x & 0xFFFFFFFF, sz)[:32 // e]                   # the lanes of the low 32 bits
        assert lanes_widen(_s64(x), sz) & M64 == _word(lo, sz + 1)
        assert lanes_even(_s64(x), sz) & M64 == _word(_lanes(x, sz)[0::2], sz)
        ly = _lanes(y & 0xFFFFFFFF, sz)[:32 // e]
        assert lanes_interleave(_s64(x), _s64(y), sz) & M64 == _word([v for p in zip(lo, ly) for v in p], sz)


def test_bytes_from_two_words():
    words = _words(30)
    for lo, hi in zip(words, reversed(words)):
        data = lo.to_bytes(8, "little") + hi.to_bytes(8, "little")
        for k in range(8):
            assert bytes_from(_s64(lo), _s64(hi), k) & M64 == int.from_bytes(data[k:k + 8], "little")
