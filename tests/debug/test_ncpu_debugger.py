"""The nCPU machine's debugger: breakpoints by label, word watchpoints, reverse execution, trace."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ncpu.debug.ncpu_target import NcpuTarget
from ncpu.machine import reference
from ncpu.machine.program_file import load_program_file

REPO = Path(__file__).resolve().parents[2]
ENV = {"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"}


def target(name: str) -> NcpuTarget:
    pf = load_program_file(REPO / "programs" / f"{name}.asm")
    return NcpuTarget(pf.program, pf.initial_state, 10**6)


def states(name: str) -> list:
    """Every state of a plain reference run, by step count."""
    pf = load_program_file(REPO / "programs" / f"{name}.asm")
    program, s = reference.decode_program(pf.program.words), pf.initial_state.copy()
    out = [s.copy()]
    while not s.halted:
        reference.step(program, s)
        out.append(s.copy())
    return out


def test_break_on_a_label_and_reverse_step_to_every_earlier_state():
    t = target("gcd")
    t.breakpoints.add(t.address_of("done"))
    stop = t.resume()
    assert stop.kind == "breakpoint" and stop.pc == t.address_of("done") and t.state.registers[0] == 6
    expected = states("gcd")
    for count in range(stop.steps - 1, -1, -1):
        assert t.reverse_step().kind == "step"
        assert t.state == expected[count]                         # every register, flag, word and pc
    assert t.reverse_step().kind == "history-begin"


def test_watch_a_word_then_go_back_to_the_last_write():
    t = target("array_copy")
    t.watchpoints.add(35)                                         # the 4th word copied
    stop = t.resume()
    assert (stop.kind, stop.address, stop.old, stop.new) == ("watch", 35, 0, 0x7FFFFFFF)
    assert t.text(t.state.pc - 1) == "STORE R4, [R2+0]"
    t.watchpoints.clear()
    t.breakpoints.add(t.address_of("copy"))
    assert t.resume().kind == "breakpoint"
    t.breakpoints.clear()
    t.watchpoints.add(35)
    back = t.reverse_continue()
    assert (back.kind, back.steps, back.new) == ("watch", stop.steps, 0x7FFFFFFF)
    assert t.state == states("array_copy")[stop.steps]
    assert t.step(1000).kind == "halted" and t.state.memory[32:40] == t.state.memory[0:8]


def test_cli_script_and_trace():
    run = subprocess.run([sys.executable, "-m", "ncpu", "debug", "asm", str(REPO / "programs" / "gcd.asm"),
                          "-ex", "break done", "-ex", "continue", "-ex", "reverse-step 2", "-ex", "trace 2",
                          "--json"], capture_output=True, env=ENV, timeout=300)
    assert run.returncode == 0, run.stderr
    recs = [json.loads(line) for line in run.stdout.decode().splitlines()]
    assert recs[1]["stop"] == "breakpoint" and recs[1]["steps"] == 20
    assert recs[2]["steps"] == 18
    traced = recs[3:5]
    assert [r["text"] for r in traced] == ["CMP R1, 0", "JZ DONE"] and traced[0]["flags"] == "ZC"
    bad = subprocess.run([sys.executable, "-m", "ncpu", "debug", "asm", str(REPO / "programs" / "gcd.asm"),
                          "-ex", "jump 3"], capture_output=True, env=ENV, timeout=300)
    assert bad.returncode == 2 and bad.stderr.decode().count("\n") == 1
