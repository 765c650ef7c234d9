"""Reverse execution through gdb: reverse-stepi, reverse-continue to breakpoints and watchpoints,
reverse-finish/-step/-next, and forward again after going back."""

from __future__ import annotations

import re

from gdb_harness import compile_c, gdb_session, normalize

SCRIPT = r"""
break square
continue
stepi
stepi
echo <A>\n
info all-registers
echo </A>\n
stepi
reverse-stepi
echo <B>\n
info all-registers
echo </B>\n
continue
continue
reverse-finish
reverse-next
reverse-step
delete
break basic.c:31
continue
watch counter
reverse-continue
p counter
reverse-continue
p counter
delete
continue
"""


def block(text: str, name: str) -> str:
    return re.search(rf"<{name}>\n(.*?)</{name}>", text, re.S).group(1)


def test_reverse_execution():
    binary = compile_c("basic")
    gdb, out, status = gdb_session("ncpu", binary, SCRIPT)
    text = normalize(gdb)
    # reverse-stepi lands on exactly the state before the last stepi: every register equal
    before, after = block(text, "A"), block(text, "B")
    assert before.count("\n") >= 34 + 32 and "pc 0x4006e4" in before and "\nv31 " in before
    assert before == after
    # reverse-finish from square(n=3) goes back to the call in main; reverse-next to
    # the start of that line, reverse-step into the loop's i++
    assert "Breakpoint 1, square (n=3) at basic.c:12\n12 int result = n * n;\n" \
           "0x0000000000400744 in main () at basic.c:25\n25 total += square(i);\n" \
           "25 total += square(i);\n24 for (int i = 1; i <= 4; i++) {" in text
    # reverse-continue with a watchpoint stops at the last write: counter 6 -> 10 in bump(4)
    assert "Old value = 10\nNew value = 6" in text
    assert "in bump (by=4) at basic.c:18" in text
    assert "Old value = 6\nNew value = 3" in text
    assert "$1 = 6" in text and "$2 = 3" in text
    # going forward again after reverse runs the printf again, with the same output
    assert out == "hello, debugger 30 10\n" * 2
    assert status == 0
