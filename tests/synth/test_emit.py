"""Emitted assembly runs on the reference engine; emitted Python agrees."""

from synth_helpers import spec_of

from ncpu.synth import terms as T
from ncpu.synth.pyemit import check_python, compile_python, to_python
from ncpu.synth.verify import check_asm


def test_compiled_terms_run_on_reference_engine():
    spec = spec_of(lambda a, b: ((a + b) & 0xFF, b), [(1, 2), (300, -7), (-5, 9)], n_out=2)
    total = T.binary("AND", T.binary("ADD", T.inp(0), T.inp(1)), T.const(0xFF))
    asm = "\n".join(T.compile_terms({0: total, 1: T.inp(1)}, [], spec.inputs) + ["HALT"])
    assert check_asm(asm, spec, engine="reference")
    assert check_python(to_python(asm, spec), spec)


def test_parallel_move_swaps_registers():
    spec = spec_of(lambda a, b: (b, a), [(1, 2), (7, -3)], n_out=2)
    lines = T.compile_terms({0: T.inp(1), 1: T.inp(0)}, [], spec.inputs)
    assert check_asm("\n".join(lines), spec, engine="reference")


def test_python_for_a_loop_matches_machine():
    import math

    spec = spec_of(math.factorial, [(0,), (1,), (5,), (7,)])
    asm = """
        MOV R1, 1
    loop:
        CMP R0, 0
        JZ done
        MUL R1, R1, R0
        DEC R0
        JMP loop
    done:
        MOV R0, R1
        HALT
    """
    assert check_asm(asm, spec, engine="reference")
    source = to_python(asm, spec)
    assert source.count("def f(r0)") == 1 and "while True" in source
    assert compile_python(source)(10) == math.factorial(10)


def test_wrong_program_is_rejected():
    spec = spec_of(lambda a: a + 1, [(1,), (2,)])
    assert not check_asm("ADD R0, R0, 2\nHALT", spec, engine="reference")
    assert not check_python(to_python("ADD R0, R0, 2\nHALT", spec), spec)


def test_max_length_and_opcodes_constrain_acceptance():
    spec = spec_of(lambda a: a + 1, [(1,), (2,)], opcodes=["INC"], max_length=1)
    assert check_asm("INC R0\nHALT", spec, engine="reference")
    assert not check_asm("ADD R0, R0, 1\nHALT", spec, engine="reference")
    assert not check_asm("NOP\nINC R0\nHALT", spec, engine="reference")


def test_only_registers_read_before_written_are_declared():
    spec = spec_of(lambda a, b: a + b, [(1, 2), (5, 9)])
    source = to_python("ADD R0, R0, R1\nMOV R2, 5\nHALT", spec)
    assert "= 0\n" not in source.split("def f")[1]  # nothing to initialise
    assert check_python(source, spec)
    # An output never written keeps the machine's initial 0.
    two = spec_of(lambda a: (a, 0), [(1,), (4,)], n_out=2)
    assert "r1 = 0" in to_python("ADD R0, R0, 0\nHALT", two)
    # A loop: R2 is read on the first pass before any write, R1 is not.
    loop = """
        MOV R1, 0
    top:
        CMP R0, 0
        JZ done
        ADD R1, R1, R2
        ADD R2, R2, 1
        DEC R0
        JMP top
    done:
        MOV R0, R1
        HALT
    """
    tri = spec_of(lambda n: n * (n - 1) // 2, [(0,), (3,), (6,)])
    source = to_python(loop, tri)
    assert "\n    r2 = 0\n" in source and "\n    r1 = 0\n" not in source
    assert check_asm(loop, tri, engine="reference") and check_python(source, tri)


def test_emitted_operations_and_conditions_match_the_definition():
    """The emitted expressions (one per op) and branch tests, against
    `ncpu.isa.semantics` on every pair of edge values."""
    import itertools

    from ncpu.isa import semantics as sem
    from ncpu.synth.pyemit import _CONDITIONS
    from ncpu.synth.spec import parse_spec

    spec = parse_spec({"inputs": ["R0", "R1"], "outputs": ["R2"], "examples": [{"in": [0, 0], "out": [0]}]})
    pairs = list(itertools.product(sem.EDGE_VALUES, repeat=2))
    for op in sem.OPS:
        f = compile_python(to_python(f"{op} R2, R0\nHALT" if op in sem.UNARY else f"{op} R2, R0, R1\nHALT", spec))
        want = sem.UNARY.get(op) or sem.BINARY[op]
        assert all(f(a, b) == (want(a) if op in sem.UNARY else want(a, b)) for a, b in pairs), op
    for name, test in sem.CONDITIONS.items():
        for n, z, c, v in itertools.product((False, True), repeat=4):
            assert eval(_CONDITIONS[name], {}, {"n": n, "z": z, "c": c, "v": v}) == test(n, z, c, v), name
