"""The SYS instruction: every engine traps before it, in the same state, and a
serviced run gives the same final state (and output) on every engine."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from machine_helpers import assert_batches_equal, engine

from ncpu.isa import assemble, disassemble
from ncpu.isa.semantics import wrap
from ncpu.machine import reference
from ncpu.machine.random_programs import random_batch, random_case, random_program
from ncpu.machine.state import MachineState
from ncpu.machine.traps import Console, complete, complete_exit, run_batch_serviced, run_serviced

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ("reference", "compute", "fast", "neural")
BUDGET = 300


def _words(text: str) -> list[int]:
    return assemble(text).words


def test_sys_assembles_and_disassembles():
    words = _words("SYS\nsys\nHALT")
    assert words[0] == 0x70 << 24 == words[1]
    assert disassemble(words, with_labels=False).split() == ["SYS", "SYS", "HALT"]


@pytest.mark.parametrize("mode", ENGINES)
def test_engine_stops_before_the_sys(mode):
    words = _words("MOV R0, 7\nINC R1\nSYS\nHALT")
    state = engine(mode).run(words, MachineState(), 100)
    assert (state.trapped, state.halted, state.pc, state.steps, state.registers[:2]) == (True, False, 2, 2, [7, 1])
    again = engine(mode).run(words, state, 100)
    assert again == state, "a trapped machine must not run until serviced"


def _test_servicer(state: MachineState) -> None:
    """A made-up call, a function of the whole register file, touching memory,
    that sometimes exits: enough to tell engines apart if they differ."""
    number, a, b, c = state.registers[:4]
    if number % 7 == 0:
        complete_exit(state)
        return
    state.memory[b % len(state.memory)] = a
    complete(state, wrap(number * 31 + (a ^ b) - c))


@pytest.mark.parametrize("mode", ["compute", "fast", "neural"])
def test_serviced_random_programs_match_reference(mode):
    run = engine(mode).run
    trapped = 0
    for seed in range(120 if mode != "neural" else 40):
        words, state = random_case(seed, syscalls=True)
        want = run_serviced(reference, words, state, BUDGET, _test_servicer)
        got = run_serviced(engine(mode), words, state, BUDGET, _test_servicer)
        assert got == want, f"{mode} differs on random_case({seed}, syscalls=True)"
        # Unserviced, every engine stops in the same trapped state.
        assert run(words, state, BUDGET) == reference.run(words, state, BUDGET), seed
        trapped += reference.run(words, state, BUDGET).trapped
    assert trapped >= 10, "the random programs should reach SYS often"


@pytest.mark.parametrize("mode", ["compute", "fast"])
def test_batched_traps_stop_only_their_machine(mode):
    for seed in range(20):
        rng = random.Random(seed)
        words = random_program(rng, syscalls=True)
        batch = random_batch(rng, rng.randint(1, 24), program_length=len(words))
        want = reference.run_batch(words, batch, BUDGET)
        got = engine(mode).run_batch(words, batch, BUDGET)
        assert_batches_equal(want, got, f"{mode} unserviced seed {seed}")
        servicers = [_test_servicer] * batch.batch_size
        serviced = run_batch_serviced(engine(mode), words, batch, BUDGET, servicers)
        singles = [run_serviced(reference, words, batch.machine(i), BUDGET, _test_servicer)
                   for i in range(batch.batch_size)]
        assert [serviced.machine(i) for i in range(batch.batch_size)] == singles, seed


def test_budget_ending_before_a_sys_leaves_it_to_run_on():
    """Out of budget on a SYS: stopped on it, not trapped (the budget is
    checked first, as before any instruction); run on, it traps then."""
    words = _words("MOV R0, 1\nSYS\nHALT")
    for budget, trapped, halted, pc in ((1, False, False, 1), (2, False, False, 2), (3, False, True, 2)):
        state = run_serviced(reference, words, MachineState(), budget, _test_servicer)
        assert (state.steps, state.trapped, state.halted, state.pc) == (budget, trapped, halted, pc)


@pytest.mark.parametrize("mode", ENGINES)
def test_hello_writes_and_exits(mode):
    words = assemble((ROOT / "programs/os/hello.asm").read_text()).words
    console = Console()
    final = run_serviced(engine(mode), words, MachineState(), 10_000, console)
    assert bytes(console.stdout) == b"Hello, nCPU!\n"
    assert console.exit_status == 0 and final.halted and not final.trapped
    assert final.pc == len(words) - 1  # exit halts on its SYS


@pytest.mark.parametrize("mode", ["reference", "compute", "fast"])
def test_echo_reads_to_the_end_of_input(mode):
    words = assemble((ROOT / "programs/os/echo.asm").read_text()).words
    text = bytes(range(256)) + b"tail"
    console = Console(stdin=text)
    final = run_serviced(engine(mode), words, MachineState(), 100_000, console)
    assert bytes(console.stdout) == text and console.exit_status == len(text) and final.halted


def test_unknown_calls_and_bad_fds_return_minus_one():
    words = _words("MOV R0, 99\nSYS\nMOV R5, R0\nMOV R0, 1\nMOV R1, 7\nSYS\nHALT")
    final = run_serviced(reference, words, MachineState(), 100, Console())
    assert final.registers[5] == -1 and final.registers[0] == -1 and final.n and final.halted


def test_ncpu_run_services_the_calls():
    """`ncpu run` prints what the program writes, and --json reports it."""
    import json
    import subprocess
    import sys

    env_run = [sys.executable, "-m", "ncpu", "run", str(ROOT / "programs/os/echo.asm")]
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    text = subprocess.run(env_run, input=b"xyz", capture_output=True, env=env, check=True).stdout
    assert text.startswith(b"xyz") and b"exited with status 3" in text
    out = subprocess.run(env_run + ["--json", "--mode", "reference"], input=b"hi", capture_output=True,
                         env=env, check=True).stdout
    result = json.loads(out)
    assert (result["stdout"], result["exit_status"], result["halted"]) == ("hi", 2, True)
