"""Watchpoints on memory that system calls read and write (read(2) into a watched
buffer, write(2) from one), through gdb-multiarch, forward against qemu and backwards."""

from __future__ import annotations

import re

from gdb_harness import compile_c, gdb_session, normalize

FORWARD = """
break main
continue
watch inbuf
continue
bt
delete
continue
"""


def _without_pc(text: str) -> str:
    return re.sub(r"0x[0-9a-f]+ in read \(\)", "ADDR in read ()", text)


def test_read_into_a_watched_buffer_stops_after_the_call_like_qemu():
    binary = compile_c("kernel_watch")
    ours, out, status = gdb_session("ncpu", binary, FORWARD)
    theirs, qout, qstatus = gdb_session("qemu", binary, FORWARD)
    text = normalize(ours)
    assert "Old value = '\\000' <repeats 15 times>\nNew value = \"data\", '\\000' <repeats 11 times>" in text
    assert "#1 0x" in text and "in main () at kernel_watch.c:13" in text
    # qemu-user's single step over an svc runs one more instruction (its pc is svc + 8, ours svc + 4,
    # as on Linux): the stop's pc is the only difference allowed
    assert _without_pc(text) == _without_pc(normalize(theirs))
    assert (out, status) == (qout, qstatus) == ("out!\n4 data\n", 0)


OURS = """
break kernel_watch.c:14
continue
watch inbuf
reverse-continue
x/i $pc
continue
x/i $pc - 4
continue
delete
rwatch outbuf
continue
bt
delete
continue
"""


def test_read_watch_write_watch_and_reverse_over_system_calls():
    binary = compile_c("kernel_watch")
    ours, out, status = gdb_session("ncpu", binary, OURS)
    text = normalize(ours)
    # backwards: the last write of inbuf is read(2); gdb shows the values swapped, pc at the svc
    back = text.index("Old value = \"data\", '\\000' <repeats 11 times>\nNew value = '\\000' <repeats 15 times>")
    assert re.search(r"=> 0x[0-9a-f]+ <read\+\d+>: svc #0x0", text[back:])
    # forwards again: the same write, stopped just after the svc
    forward = text.index("Old value = '\\000' <repeats 15 times>\nNew value = \"data\"", back)
    assert re.search(r"0x[0-9a-f]+ <read\+\d+>: svc #0x0", text[forward:])
    assert "Breakpoint 1, main () at kernel_watch.c:14" in text[forward:]
    # write(2) reads the watched buffer
    hit = text.index("Hardware read watchpoint 3: outbuf\n\nValue = \"out!\\n\\000\\000\"")
    assert "in write ()\n#0" in text[hit:] and "in main () at kernel_watch.c:14" in text[hit:]
    assert status == 0 and out.endswith("out!\n4 data\n")
