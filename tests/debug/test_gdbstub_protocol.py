"""The remote protocol packet by packet (no gdb): registers, memory, points, stepping, bad input."""

from __future__ import annotations

import random
import socket
import struct
import subprocess
import sys
import tempfile
import time

import pytest

from gdb_harness import ENV, REPO, compile_c, free_port
from ncpu.arm64.linux import Machine
from ncpu.debug.gdbstub import Connection, Detach, Stub, checksum, frame
from ncpu.debug.target import Target


@pytest.fixture
def stub():
    binary = compile_c("basic")
    root = tempfile.mkdtemp(prefix="ncpu-test-root-")
    kernel = Machine(root=root, stdio=(0, 2, 2)).boot(root, str(binary), [str(binary)], {})
    return Stub(Target(kernel, 10**8), str(binary))


def symbol(name: str) -> int:
    from elftools.elf.elffile import ELFFile
    with open(compile_c("basic"), "rb") as f:
        return ELFFile(f).get_section_by_name(".symtab").get_symbol_by_name(name)[0]["st_value"]


def test_features_and_target_description(stub):
    features = stub.handle(b"qSupported:multiprocess+;swbreak+").split(b";")
    assert b"ReverseStep+" in features and b"ReverseContinue+" in features
    xml = b""
    while True:
        part = stub.handle(b"qXfer:features:read:target.xml:%x,200" % len(xml))
        xml += part[1:]
        if part[:1] == b"l":
            break
    assert b"org.gnu.gdb.aarch64.core" in xml and b"org.gnu.gdb.aarch64.fpu" in xml
    assert xml.count(b"<reg ") == 31 + 3 + 32 + 2
    assert stub.handle(b"qXfer:exec-file:read::0,1000") == b"l" + str(compile_c("basic")).encode()
    auxv = stub.handle(b"qXfer:auxv:read::0,1000")[1:]
    pairs = dict(struct.iter_unpack("<QQ", auxv))
    assert pairs[6] == 4096                       # AT_PAGESZ
    assert pairs[9] == symbol("_start")           # AT_ENTRY
    assert auxv[-16:] == bytes(16)                # AT_NULL ends it


def test_registers_read_write(stub):
    g = bytes.fromhex(stub.handle(b"g").decode())
    assert len(g) == 31 * 8 + 8 + 8 + 4 + 32 * 16 + 4 + 4
    pc = struct.unpack_from("<Q", g, 32 * 8)[0]
    assert pc == symbol("_start")
    assert stub.handle(b"p20") == g[32 * 8:33 * 8].hex().encode()
    assert stub.handle(b"P5=%s" % (0x1122334455667788).to_bytes(8, "little").hex().encode()) == b"OK"
    assert stub.handle(b"p5") == b"8877665544332211"
    v = bytes(range(16))
    assert stub.handle(b"P23=" + v.hex().encode()) == b"OK"         # v1 is register 0x23
    assert stub.handle(b"p23") == v.hex().encode()
    g2 = bytearray(bytes.fromhex(stub.handle(b"g").decode()))
    g2[0:8] = (42).to_bytes(8, "little")
    assert stub.handle(b"G" + bytes(g2).hex().encode()) == b"OK"
    assert stub.handle(b"p0") == (42).to_bytes(8, "little").hex().encode()


def test_memory_read_write_and_escaped_binary(stub):
    counter = symbol("counter")
    assert stub.handle(b"m%x,4" % counter) == b"00000000"
    assert stub.handle(b"M%x,4:01020304" % counter) == b"OK"
    assert stub.handle(b"m%x,4" % counter) == b"01020304"
    # X: 0x7d escapes the next byte xor 0x20 ('#', '$', '}' travel escaped)
    assert stub.handle(b"X%x,4:\x7d\x03\x7d\x04\x7d\x5dA" % counter) == b"OK"
    assert stub.handle(b"m%x,4" % counter) == b"23247d41"
    assert stub.handle(b"m10,4") == b"E14"        # unmapped


def test_breakpoint_step_and_continue(stub):
    square = symbol("square")
    assert stub.handle(b"Z0,%x,4" % square) == b"OK"
    reply = stub.handle(b"c")
    assert reply.startswith(b"T05thread:") and b"swbreak" in reply
    assert stub.handle(b"p20") == square.to_bytes(8, "little").hex().encode()
    assert stub.handle(b"s").startswith(b"T05")
    assert stub.handle(b"p20") == (square + 4).to_bytes(8, "little").hex().encode()
    assert stub.handle(b"bs").startswith(b"T05")  # and back again
    assert stub.handle(b"p20") == square.to_bytes(8, "little").hex().encode()
    assert stub.handle(b"z0,%x,4" % square) == b"OK"
    assert stub.handle(b"vCont;c") == b"W00"


def test_threads_and_unknown_packets(stub):
    tid = int(stub.handle(b"qC")[2:], 16)
    assert stub.handle(b"qfThreadInfo") == b"m%x" % tid and stub.handle(b"qsThreadInfo") == b"l"
    assert stub.handle(b"T%x" % tid) == b"OK" and stub.handle(b"T999999") == b"E02"
    assert stub.handle(b"Hg%x" % tid) == b"OK"
    assert stub.handle(b"vMustReplyEmpty") == b"" and stub.handle(b"qNoSuchThing") == b""
    with pytest.raises(Detach):
        stub.handle(b"k")


def test_garbage_never_raises(stub):
    rng = random.Random(7)
    letters = b"gGpPmMXZzHTqQv?bx:,;=#$}0123456789abcdef"
    for _ in range(3000):
        n = rng.randrange(0, 24)
        payload = bytes(rng.choice(letters) if rng.random() < 0.8 else rng.randrange(256) for _ in range(n))
        if payload[:1] in (b"c", b"s", b"C", b"S", b"k", b"D", b"v", b"b"):
            continue                              # running or leaving: covered above
        reply = stub.handle(payload)
        assert isinstance(reply, bytes)


class FakeSocket:
    def __init__(self, data: bytes):
        self.data, self.sent = data, b""

    def recv(self, n):
        chunk, self.data = self.data[:n], self.data[n:]
        return chunk

    def sendall(self, data):
        self.sent += data


def test_framing_naks_bad_checksums():
    sock = FakeSocket(b"junk$qC#00" + frame(b"qC") + b"\x03" + frame(b"g"))
    conn = Connection(sock)
    assert conn.packet() == b"qC"
    assert sock.sent == b"-+"
    assert conn.packet() == b"g" and conn.interrupt_seen
    assert conn.packet() is None
    assert checksum(b"qSupported") == b"37"


def _server(port: int, binary, *extra):
    return subprocess.Popen([sys.executable, "-m", "ncpu", "arm64", "-g", str(port), *extra, str(binary)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(ENV, PYTHONPATH=str(REPO / "src")))


def _connect(port: int) -> socket.socket:
    for _ in range(600):
        try:
            return socket.create_connection(("127.0.0.1", port))
        except ConnectionRefusedError:
            time.sleep(0.1)
    raise AssertionError("server never listened")


def test_port_in_use_is_one_line_error():
    binary = compile_c("basic")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        proc = _server(port, binary)
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2
    assert err.decode().count("\n") == 1 and "cannot listen on 127.0.0.1" in err.decode()


def test_garbage_then_drop_ends_the_guest_cleanly():
    binary = compile_c("basic")
    port = free_port()
    proc = _server(port, binary)
    sock = _connect(port)
    sock.sendall(bytes(random.Random(1).randrange(256) for _ in range(5000)).replace(b"$", b"") + frame(b"qC"))
    reply = b""
    while b"#" not in reply:
        reply += sock.recv(100)
    assert b"$QC3e8#" in reply                     # tid 1000 answered after the garbage
    sock.close()
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 137
    assert err.decode().strip() == "ncpu: gdb connection dropped: guest ended"
    assert out == b""


def test_detach_lets_the_guest_finish():
    binary = compile_c("basic")
    port = free_port()
    proc = _server(port, binary)
    sock = _connect(port)
    sock.sendall(frame(b"D"))
    reply = b""
    while not reply.endswith(b"#9a"):
        reply += sock.recv(100)
    assert reply == b"+$OK#9a"
    sock.close()
    out, err = proc.communicate(timeout=120)
    assert (out, proc.returncode) == (b"hello, debugger 30 10\n", 0)


def _reply(sock: socket.socket) -> bytes:
    data = b""
    while not (b"#" in data and len(data) >= data.index(b"#") + 3):
        chunk = sock.recv(4096)
        assert chunk, "connection closed"
        data += chunk
    return data


def test_interrupt_stops_a_running_guest():
    binary = compile_c("spin")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "ncpu", "arm64", "-g", str(port), str(binary), "1000000000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(ENV, PYTHONPATH=str(REPO / "src")))
    sock = _connect(port)
    sock.sendall(frame(b"c"))
    assert sock.recv(1) == b"+"
    time.sleep(1.0)
    sock.sendall(b"\x03")
    assert _reply(sock).startswith(b"$T02thread:3e8;")       # SIGINT, as gdb expects
    sock.sendall(frame(b"k"))
    sock.close()
    proc.communicate(timeout=120)
    assert proc.returncode == 137


def test_read_and_access_watchpoints(stub):
    counter = symbol("counter")
    bump = symbol("bump")
    assert stub.handle(b"Z3,%x,4" % counter) == b"OK"
    reply = stub.handle(b"c")                  # bump's `counter += by` loads counter first
    assert reply == b"T05thread:3e8;rwatch:%x;" % counter
    pc = int.from_bytes(bytes.fromhex(stub.handle(b"p20").decode()), "little")
    assert bump < pc < bump + 0x40             # stopped before the load retired
    assert stub.handle(b"m%x,4" % counter) == b"00000000"
    assert stub.handle(b"z3,%x,4" % counter) == b"OK"
    assert stub.handle(b"Z4,%x,4" % counter) == b"OK"
    assert stub.handle(b"s").startswith(b"T05")    # step over the load (an access: it stops again first)
    reply = stub.handle(b"c")
    assert reply == b"T05thread:3e8;awatch:%x;" % counter
    assert stub.handle(b"m%x,4" % counter) == b"00000000"     # the store has not happened yet


def test_access_size_from_the_disassembly():
    from types import SimpleNamespace

    from ncpu.debug.target import _access_size

    words = {0xB9400020: 4, 0xF9400020: 8, 0x39400020: 1, 0x79400020: 2, 0xA9400420: 16, 0x29400420: 8,
             0xC85F7C20: 8, 0xC8027C20: 8, 0xB8200020: 4, 0x3DC00020: 16, 0xB8800020: 4, 0x39C00020: 1,
             0x4C407020: 64}
    for word, size in words.items():
        proc = SimpleNamespace(state=SimpleNamespace(pc=0x1000),
                               mem=SimpleNamespace(read=lambda a, n, w=word: struct.pack("<I", w)))
        assert _access_size(proc) == size, hex(word)
