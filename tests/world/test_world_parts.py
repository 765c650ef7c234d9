"""The calibrated score's contexts and error rates, and the loop branches and
trip counts of `trips.py`, checked against the exact machine and by hand."""

import numpy as np

from ncpu.isa import assemble
from ncpu.machine.state import MachineState
from ncpu.world.calibrate import ROLES, ErrorRates, word_roles
from ncpu.world.features import BUS_WRITE, WORDS, WORD_ORDER
from ncpu.world.traces import random_traces, record
from ncpu.world.trips import Latches, loop_branches
from ncpu.isa.opcodes import BY_MNEMONIC


def _action(name, rd=0, rs1=0, rs2=0, imm=0, bus=0, addr=0, value=0):
    return np.array([[BY_MNEMONIC[name].code, rd, rs1, rs2, imm, bus, addr, value]], np.int64)


def test_word_roles_follow_the_instruction():
    roles = word_roles(_action("ADD", rd=3, rs1=1, rs2=2))[0]
    names = {WORD_ORDER[i]: ROLES[r] for i, r in enumerate(roles)}
    assert names["R3"] == "written_register" and names["R1"] == "other_register"
    assert names["pc"] == "pc" and names["sp"] == "sp" and names["flags"] == "flags"
    assert {names[f"M{i}"] for i in range(8)} == {"other_memory"}
    # CMP writes no register; STORE into the window marks that word
    assert "written_register" not in {ROLES[r] for r in word_roles(_action("CMP", rd=3))[0]}
    stored = word_roles(_action("STORE", rs1=1, rs2=2, bus=BUS_WRITE, addr=5))[0]
    assert ROLES[stored[WORD_ORDER.index("M5")]] == "written_memory"
    assert ROLES[stored[WORD_ORDER.index("M4")]] == "other_memory"


def test_error_rates_make_a_miss_where_the_model_is_never_wrong_the_bigger_surprise():
    rng = np.random.default_rng(0)
    n = 4000
    actions = np.repeat(_action("ADD", rd=0, rs1=1, rs2=2), n, 0)
    logits = np.full((n, WORDS * 32), 12.0)
    observed = np.ones((n, WORDS * 32))
    # the written register (R0, bits 0..31) is wrong a third of the time; nothing else ever is
    observed[:, :32] = rng.random((n, 32)) > 0.33
    rates = ErrorRates.fit(actions, logits, observed)
    miss = np.ones((1, WORDS * 32))
    miss_in_written, miss_elsewhere = miss.copy(), miss.copy()
    miss_in_written[0, 5] = 0
    miss_elsewhere[0, 32 + 5] = 0  # R1's bit 5
    written = rates.surprise(actions[:1], logits[:1], miss_in_written).max()
    elsewhere = rates.surprise(actions[:1], logits[:1], miss_elsewhere).max()
    assert elsewhere > written + 3  # several nats apart
    assert np.isclose(written, -np.log(0.33), atol=0.05)


def test_loop_branches_are_found_in_both_loop_shapes():
    bottom = assemble("MOV R1, 3\nloop: INC R0\nDEC R1\nJNZ loop\nHALT").words
    top = assemble("MOV R2, 4\nloop: CMP R2, 0\nJZ done\nDEC R2\nJMP loop\ndone: HALT").words
    forward_if = assemble("CMP R0, 1\nJZ skip\nINC R0\nskip: HALT").words
    assert loop_branches(bottom) == {3: True}
    assert loop_branches(top) == {2: False}
    assert loop_branches(forward_if) == {}


def _count_by_hand(trace):
    """Remaining trip counts by walking the trace: at each loop-branch step, count
    the executions of that branch from there on that keep the loop going before one leaves it."""
    stays = loop_branches(trace.words)
    pcs = list(trace.states[:-1, 12])
    outcome = [trace.states[t + 1, 12] == trace.actions[t, 4] for t in range(len(trace))]
    expected = {}
    for t, pc in enumerate(pcs):
        if pc not in stays:
            continue
        count = 0
        for u in range(t, len(trace)):
            if pcs[u] != pc:
                continue
            if outcome[u] != stays[pc]:
                expected[t] = count
                break
            count += 1
    return expected


def test_trip_counts_match_counting_by_hand():
    nested = assemble("MOV R2, 5\nouter: MOV R3, 2\nloop: CMP R3, 0\nJZ next\nDEC R3\nJMP loop\n"
                      "next: DEC R2\nJNZ outer\nHALT").words
    trace = record(nested, MachineState(registers=[0] * 8, memory=[0] * 16, pc=0, sp=16), 200)
    expected = _count_by_hand(trace)
    latches = Latches.of([trace])
    assert len(latches) == len(expected) > 10
    assert sorted(latches.remaining) == sorted(expected.values())
    assert latches.first.sum() == 5 + 1  # five entries of the inner loop, one of the outer
    assert latches.remaining.max() == 4  # the outer loop, entered at its first JNZ: 4 more rounds
    for trace in random_traces("train", 40, 80):
        assert sorted(Latches.of([trace]).remaining) == sorted(_count_by_hand(trace).values())
