"""Live streams: output before every wait, input in any pieces, same result
as one run over the whole input."""

from __future__ import annotations

import pytest

from ncpu.muxleq import compute
from ncpu.muxleq.assembler import assemble_file, program_path
from ncpu.muxleq.console import run_streams
from ncpu.muxleq.engines import get_engine
from ncpu.muxleq.state import MuxleqState


def calculator(end_of_input: bool = False) -> MuxleqState:
    return MuxleqState.load(assemble_file(program_path("calculator")).cells, end_of_input=end_of_input)


@pytest.mark.parametrize("mode", ["compute", "reference", "neural"])
def test_answers_come_before_the_next_line_is_read(mode):
    pieces, log = [b"40+", b"2\n", b"5", b"*5\n"], []

    def read() -> bytes:
        log.append(("read", pieces[0] if pieces else b""))
        return pieces.pop(0) if pieces else b""

    final = run_streams(get_engine(mode), calculator(), 10 ** 6, read, lambda b: log.append(("write", b)), 300)
    assert final.halted and final.output == b""
    written = [data for kind, data in log if kind == "write"]
    assert b"".join(written) == b"42\n25\n"
    # all of "42\n" was written before the third piece was asked for
    before = log[:log.index(("read", b"5"))]
    assert b"".join(data for kind, data in before if kind == "write") == b"42\n"


def test_same_state_as_one_uninterrupted_run():
    data = b"1+2\n3*4\n10/3\n"
    pieces = [data[i:i + 1] for i in range(len(data))]
    streamed = run_streams(compute, calculator(), 10 ** 6, lambda: pieces.pop(0) if pieces else b"", lambda b: None)
    whole = compute.run(MuxleqState.load(calculator().memory, data), 10 ** 6)
    assert (streamed.steps, streamed.pc, streamed.halted) == (whole.steps, whole.pc, whole.halted)
    assert (streamed.memory == whole.memory).all()


def test_budget_stops_the_run():
    final = run_streams(compute, calculator(), 50, lambda: b"1+1\n", lambda b: None)
    assert final.steps == 50 and not final.halted
