"""swar.py's whole-word lane arithmetic against lane-by-lane arithmetic, on random
words and on every edge lane value, for every lane size."""
import numpy as np
import pytest

from ncpu.arm64.cpu.swar import lanes_add, lanes_eq_zero, lanes_sub, tops

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
