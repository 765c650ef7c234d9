"""The sketch family's numba kernel restates each operation and each exit
test (`loops._apply`, `loops._exits`, and `loops._taken` in numpy): all of
them against `ncpu.isa.semantics` on every pair of edge values and random
pairs."""

from __future__ import annotations

import random

import numpy as np

from ncpu.isa import semantics as sem
from ncpu.synth.loops import _JUMP, CONDITIONS, OPS, _apply, _exits, _taken

_rng = random.Random(17)
VALUES = list(sem.EDGE_VALUES) + [sem.wrap(_rng.getrandbits(32)) for _ in range(20)] + [_rng.randint(-40, 40) for _ in range(6)]
PAIRS = [(a, b) for a in VALUES for b in VALUES]


def test_kernel_operations_match_the_definition():
    for code, name in enumerate(OPS):
        for a, b in PAIRS:
            if name == "COPY":
                want = a
            elif name in sem.UNARY:
                want = sem.UNARY[name](a)
            else:
                want = sem.BINARY[name](a, b)
            assert _apply(code, a, b) == want, (name, a, b)


def test_exit_tests_match_the_definition():
    p = np.array([a for a, _ in PAIRS], np.int64)
    q = np.array([b for _, b in PAIRS], np.int64)
    for cond, name in enumerate(CONDITIONS):
        want = [sem.CONDITIONS[_JUMP[name]](*sem.compare_flags(a, b)) for a, b in PAIRS]
        assert [bool(_exits(cond, a, b)) for a, b in PAIRS] == want, name
        assert np.asarray(_taken(cond, p, q)).tolist() == want, name


def test_expression_tables_are_built_once_and_match_deduplication_by_whole_columns():
    """The tables are cached per process (a worker serves many problems) and
    deduplicated by a hash per column: the same rows as keeping the first of
    each distinct column of sample values."""
    import numpy as np

    from ncpu.synth import loops

    allowed = list(range(len(loops.OPS)))
    for nested in (False, True):
        table = loops._expressions(7, allowed, nested)
        assert loops._expressions(7, allowed, nested) is table
        assert not table.flags.writeable
        rng = np.random.default_rng(0)
        samples = rng.integers(-50, 50, size=(24, 7)).astype(np.int64)
        one = [(0, a, 0) for a in range(7)] + [(op, a, a) for op in (12, 13) for a in range(7)]
        one += [(op, a, b) for op in range(1, 12) for a in range(7) for b in range(7)]
        rows = ([(o1, a, o2, b, c) for o1 in range(1, 12) for a in range(7) for (o2, b, c) in one if o2 != 0]
                if nested else [(op, b, 0, c, 0) for op, b, c in one])
        full = np.array(rows, np.int64)
        inner = loops._apply_columns(full[:, 2], samples[:, full[:, 3]], samples[:, full[:, 4]])
        values = loops._apply_columns(full[:, 0], samples[:, full[:, 1]], inner)
        _, first = np.unique(values.T, axis=0, return_index=True)
        assert np.array_equal(table, full[np.sort(first)])
