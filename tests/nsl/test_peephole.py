"""The nsl peephole optimizer: the SMT model is the machine, the guard refuses
wrong rewrites, and optimized programs still print what they should."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("cvc5")

from nsl_examples import load_examples  # noqa: E402
from ncpu.isa import assemble  # noqa: E402
from ncpu.isa.encoding import decode  # noqa: E402
from ncpu.machine import reference  # noqa: E402
from ncpu.machine.state import MachineState  # noqa: E402
from ncpu.nsl import compile_source, listing, peephole  # noqa: E402
from ncpu.nsl.equivalence import FLAGS, SymbolicState, _z3, prove, symbolic_step  # noqa: E402
from ncpu.pipeline.stages import Built, execute  # noqa: E402

EXAMPLES = {e.name: e for e in load_examples()}
STRAIGHT_FORMS = ["MOV R{a}, R{b}", "MOV R{a}, {i}", "MOVT R{a}, {u}", "ADD R{a}, R{b}, R{c}", "SUB R{a}, R{b}, R{c}",
                  "MUL R{a}, R{b}, R{c}", "DIV R{a}, R{b}, R{c}", "MOD R{a}, R{b}, R{c}", "AND R{a}, R{b}, {i}",
                  "OR R{a}, R{b}, R{c}", "XOR R{a}, R{b}, {i}", "SHL R{a}, R{b}, R{c}", "SHR R{a}, R{b}, {s}",
                  "SAR R{a}, R{b}, R{c}", "SAR R{a}, R{b}, {s}", "NOT R{a}, R{b}", "NEG R{a}, R{b}", "INC R{a}",
                  "DEC R{a}", "CMP R{a}, R{b}", "CMP R{a}, {i}", "LOAD R{a}, [R{b}+{s}]", "STORE R{a}, [R{b}-{s}]",
                  "PUSH R{a}", "POP R{a}", "ADD R{a}, R{b}, {i}"]
VALUES = [0, 1, -1, 2, 3, 7, 15, 16, 31, 32, 33, -32, 0xFFFF, 0x10000, -(1 << 31), (1 << 31) - 1, 123456789]


def random_window(rng: random.Random, length: int):
    text = "\n".join(rng.choice(STRAIGHT_FORMS).format(
        a=rng.randrange(8), b=rng.randrange(8), c=rng.randrange(8), i=rng.randint(-40, 40),
        u=rng.randrange(1 << 16), s=rng.randrange(32)) for _ in range(length))
    return [decode(w) for w in assemble(text).words]


def test_the_smt_model_is_the_reference_engine():
    """Run random windows on concrete states both ways: the solver must find
    no final state other than the reference engine's."""
    rng = random.Random(7)
    size = 16
    z = _z3()
    for _ in range(60):
        window = random_window(rng, rng.randint(1, 4))
        concrete = MachineState([rng.choice(VALUES) for _ in range(8)], [rng.choice(VALUES) for _ in range(size)],
                                *(rng.random() < 0.5 for _ in FLAGS), sp=rng.randrange(size))
        expected = concrete.copy()
        for k in range(len(window)):
            expected.pc = k
            reference.step(window, expected)
        start = SymbolicState(z, size)
        end = start.copy()
        for ins in window:
            symbolic_step(end, ins)
        solver = z.Solver()
        const = lambda v: z.BitVecVal(v & 0xFFFFFFFF, 32)  # noqa: E731
        solver.add(start.sp == concrete.sp)
        solver.add(*[start.regs[i] == const(concrete.registers[i]) for i in range(8)])
        solver.add(*[start.flags[f] == concrete.flags[f] for f in FLAGS])
        solver.add(*[z.Select(start.mem, const(a)) == const(concrete.memory[a]) for a in range(size)])
        wrong = [end.sp != const(expected.sp)]
        wrong += [end.regs[i] != const(expected.registers[i]) for i in range(8)]
        wrong += [end.flags[f] != expected.flags[f] for f in FLAGS]
        wrong += [z.Select(end.mem, const(a)) != const(expected.memory[a]) for a in range(size)]
        solver.add(z.Or(*wrong))
        assert str(solver.check()) == "unsat", [str(w) for w in window]


def instructions(text: str):
    return [decode(w) for w in assemble(text).words]


def test_a_dead_compare_is_removed_only_when_its_flags_are_dead():
    old = instructions("LOAD R0, [R7+1]\nCMP R0, 0")
    new = instructions("LOAD R0, [R7+1]")
    # LOAD already sets Z from R0: a JNZ after it cannot tell the difference ...
    assert prove(old, new, frozenset({"Z", "R0", "R7"}), 5120).proven
    # ... but a JAE reads C, which only the CMP sets.
    verdict = prove(old, new, frozenset({"Z", "C", "R0", "R7"}), 5120)
    assert not verdict.proven and verdict.reason == "sat"


def test_memory_aliasing_is_part_of_the_proof():
    """Dropping a reload after a store is right only for the same address."""
    same = instructions("STORE R0, [R7+2]\nLOAD R0, [R7+2]")
    assert prove(same, same[:1], frozenset({"R0", "R7"}), 5120).proven
    other = instructions("STORE R0, [R7+2]\nLOAD R0, [R7+3]")
    assert not prove(other, other[:1], frozenset({"R0", "R7"}), 5120).proven
    # a store that a later store to an address that may alias overwrites is not dead
    stores = instructions("STORE R0, [R7+2]\nSTORE R1, [R6+9]")
    assert not prove(stores, stores[1:], frozenset(), 5120).proven


def test_the_guard_rejects_a_deliberately_wrong_candidate_and_counts_it():
    """A chooser that puts a wrong rewrite first (drop every window's last
    instruction) is refused wherever that is wrong; the program still works."""
    example = EXAMPLES["bubble_sort"]
    compiled = compile_source(example.source)

    def saboteur(window, live, found):
        drop_last = peephole.Candidate("delete", tuple(window[:-1]), 1)
        return [drop_last]

    assembly, report = peephole.optimize(compiled.assembly, compiled.mem_size, saboteur)
    assert report.rejected > 0
    assert all(r.proof == "unsat" for r in report.applied)
    built = Built(compiled, assemble(assembly).words)
    run = execute(built, list(example.args), "reference")
    assert (run.output, run.exit_status) == (example.output, example.status)


def test_a_wrong_rewrite_that_random_states_miss_is_caught_by_the_solver():
    """The two compares differ only for R0 = 1000 or 1001: no random state
    has those, the solver finds one."""
    guard = peephole.Guard(5120)
    assert guard(instructions("CMP R0, 1000"), instructions("CMP R0, 1001"), frozenset({"Z"})) == (False, "sat")
    assert guard.report.smt_calls == 1


def test_liveness_follows_jumps_and_is_everything_at_ret():
    lines = listing.parse("MOV R1, 5\nMOV R2, 6\nCMP R1, 0\nJZ end\nMOV R0, R2\nend:\nCMP R1, R1\nRET\n")
    live = listing.liveness(lines)
    assert "R2" in live[1] and "Z" in live[2] and "C" not in live[2]
    assert live[6] == listing.EVERYTHING and not {"N", "Z", "C", "V"} & live[4]


SMALL = ["bubble_sort", "compound", "fizzbuzz", "hello"]


@pytest.fixture(scope="module")
def optimized():
    found = {}
    for name in SMALL:
        compiled = compile_source(EXAMPLES[name].source, name + ".nsl")
        assembly, report = peephole.optimize(compiled.assembly, compiled.mem_size)
        found[name] = (compiled, Built(compiled, assemble(assembly).words), report)
    return found


# The fast engine runs one machine at a few thousand steps a second: two
# programs here, every program in the slow test below.
CASES = [(name, engine) for name in SMALL for engine in ("reference", "compute", "neural")] + \
    [("hello", "fast"), ("compound", "fast")]


@pytest.mark.parametrize(("name", "engine"), CASES)
def test_optimized_programs_print_the_expected_output(name, engine, optimized):
    example = EXAMPLES[name]
    compiled, built, report = optimized[name]
    run = execute(built, list(example.args), engine)
    assert (run.output, run.exit_status) == (example.output, example.status)
    assert all(r.proof == "unsat" for r in report.applied)


def test_optimizing_saves_instructions_and_steps(optimized):
    saved_words = saved_steps = 0
    for name in SMALL:
        compiled, built, report = optimized[name]
        assert report.after == len(built.words) <= report.before
        before = execute(Built(compiled, assemble(compiled.assembly).words), list(EXAMPLES[name].args), "compute")
        after = execute(built, list(EXAMPLES[name].args), "compute")
        assert after.final.steps <= before.final.steps
        saved_words += report.before - report.after
        saved_steps += before.final.steps - after.final.steps
    assert saved_words > 0 and saved_steps > 0


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["reference", "compute", "neural", "fast"])
def test_every_example_optimized_on_every_engine(engine):
    for example in EXAMPLES.values():
        compiled = compile_source(example.source, example.name + ".nsl")
        assembly, report = peephole.optimize(compiled.assembly, compiled.mem_size)
        run = execute(Built(compiled, assemble(assembly).words), list(example.args), engine)
        assert (run.output, run.exit_status) == (example.output, example.status), example.name
