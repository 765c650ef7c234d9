"""A debugged program that forks and execs: gdb stays with the parent (gdb's default
follow-fork-mode), the child runs to its end without stopping at breakpoints or watchpoints."""

from __future__ import annotations

from gdb_harness import compile_c, gdb_session, normalize

SCRIPT = """
break main
continue
watch counter
break child_work
break report
continue
bt
p counter
p status
continue
"""


def test_the_child_runs_on_and_gdb_stays_with_the_parent():
    ours, out, status = gdb_session("ncpu", compile_c("forkexec"), SCRIPT)
    assert "Hardware watchpoint 2: counter" in ours
    text = normalize(ours)
    # the child wrote counter and ran child_work in its own address space: no stop there
    assert "Breakpoint 3, child_work" not in text and "Old value" not in text
    assert "Breakpoint 4, report (status=1280) at forkexec.c:16" in text
    assert "$1 = 0\n$2 = 1280" in text
    assert "[Inferior 1 exited normally]" in text
    assert (out, status) == ("exec'd: again\nparent: child exited with 5, counter 0\n", 0)
