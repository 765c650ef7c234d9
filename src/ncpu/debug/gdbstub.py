"""gdb's remote serial protocol over a Target: `ncpu arm64 -g PORT BINARY`.

Packets are `$payload#checksum` (two hex digits, the sum of the payload's
bytes mod 256), acknowledged with `+` or refused with `-`; a lone 0x03 byte
asks a running target to stop.  `Stub.handle(payload) -> reply` is the whole
protocol logic and needs no socket (the tests call it directly); `serve`
is the socket loop.  Registers follow gdb's aarch64 target description:
x0..x30, sp, pc (8 bytes), cpsr (4), v0..v31 (16), fpsr, fpcr (4).
"""

from __future__ import annotations

import select
import socket
import struct

from ncpu.arm64.cpu import GuestFault
from ncpu.arm64.linux import abi

from .target import ACCESS, READ, WRITE, Event, Target

# Linux signal numbers -> gdb's own numbering (they differ from 7 on: SIGBUS is 10 in gdb)
GDB_SIGNAL = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 10, 8: 8, 9: 9, 10: 30, 11: 11, 12: 31,
              13: 13, 14: 14, 15: 15, 31: 12}
LINUX_SIGNAL = {v: k for k, v in GDB_SIGNAL.items()}

WATCH_NAMES = {WRITE: "watch", READ: "rwatch", ACCESS: "awatch"}
FEATURES = {"PacketSize=4000", "qXfer:features:read+", "qXfer:auxv:read+", "qXfer:exec-file:read+",
            "vContSupported+", "QStartNoAckMode+", "ReverseStep+", "ReverseContinue+", "swbreak+",
            "hwbreak+"}


def checksum(payload: bytes) -> bytes:
    return b"%02x" % (sum(payload) & 0xFF)


def frame(payload: bytes) -> bytes:
    return b"$" + payload + b"#" + checksum(payload)


def unescape(data: bytes) -> bytes:
    """The binary data of an X packet: 0x7d escapes the next byte (xor 0x20)."""
    out, i = bytearray(), 0
    while i < len(data):
        if data[i] == 0x7D and i + 1 < len(data):
            out.append(data[i + 1] ^ 0x20)
            i += 2
        else:
            out.append(data[i])
            i += 1
    return bytes(out)


def target_xml() -> str:
    core = "".join(f'<reg name="x{i}" bitsize="64" type="int" regnum="{i}"/>' for i in range(31))
    core += ('<reg name="sp" bitsize="64" type="data_ptr"/><reg name="pc" bitsize="64" type="code_ptr"/>'
             '<reg name="cpsr" bitsize="32" type="int"/>')
    lanes = [("d", "ieee_double", "uint64", "int64", 2), ("s", "ieee_single", "uint32", "int32", 4),
             ("h", "ieee_half", "uint16", "int16", 8), ("b", None, "uint8", "int8", 16)]
    types = ""
    for name, fl, u, s, n in lanes:
        fields = ""
        if fl:
            types += f'<vector id="v{name}f" type="{fl}" count="{n}"/>'
            fields += f'<field name="f" type="v{name}f"/>'
        types += f'<vector id="v{name}u" type="{u}" count="{n}"/><vector id="v{name}i" type="{s}" count="{n}"/>'
        fields += f'<field name="u" type="v{name}u"/><field name="s" type="v{name}i"/>'
        types += f'<union id="vn{name}">{fields}</union>'
    types += ('<vector id="vqu" type="uint128" count="1"/><vector id="vqi" type="int128" count="1"/>'
              '<union id="vnq"><field name="u" type="vqu"/><field name="s" type="vqi"/></union>'
              '<union id="aarch64v"><field name="d" type="vnd"/><field name="s" type="vns"/>'
              '<field name="h" type="vnh"/><field name="b" type="vnb"/><field name="q" type="vnq"/></union>')
    fpu = types + "".join(f'<reg name="v{i}" bitsize="128" type="aarch64v" regnum="{34 + i}"/>' for i in range(32))
    fpu += '<reg name="fpsr" bitsize="32" type="int"/><reg name="fpcr" bitsize="32" type="int"/>'
    return ('<?xml version="1.0"?><!DOCTYPE target SYSTEM "gdb-target.dtd"><target>'
            '<architecture>aarch64</architecture><osabi>GNU/Linux</osabi>'
            f'<feature name="org.gnu.gdb.aarch64.core">{core}</feature>'
            f'<feature name="org.gnu.gdb.aarch64.fpu">{fpu}</feature></target>')


class Detach(Exception):
    """gdb detached (D) or killed the guest (k): leave the packet loop."""

    def __init__(self, kill: bool):
        self.kill = kill


class Stub:
    """The protocol's meaning: one payload in, one reply out."""

    def __init__(self, target: Target, exe_path: str):
        self.target = target
        self.exe_path = exe_path
        self.thread = target.current_tid()       # Hg: the thread registers refer to
        self.initial_sp = target.thread(self.thread).state.sp
        self.interrupted = None                  # callable polled while running (the socket sets it)
        self.last_event = Event("signal", self.thread, abi.SIGTRAP)

    # --- dispatch -----------------------------------------------------------------
    def handle(self, payload: bytes) -> bytes | None:
        """The reply to one packet (None: no reply, e.g. after k)."""
        if payload[:1] in (b"G", b"P", b"M", b"X"):
            self.target.rewrite_history()
        try:
            return self._dispatch(payload.decode("latin-1"))
        except Detach:
            raise
        except (ValueError, IndexError, KeyError, struct.error, GuestFault, OverflowError, TypeError,
                UnicodeError):
            return b"E01"                              # a malformed packet: an error reply, never a crash

    def _dispatch(self, p: str) -> bytes | None:
        if not p:
            return b""
        c, rest = p[0], p[1:]
        if p.startswith("qSupported"):
            return ";".join(sorted(FEATURES)).encode()
        if p.startswith("qXfer:"):
            return self._xfer(p)
        if p == "QStartNoAckMode":
            self.no_ack = True
            return b"OK"
        if p == "?":
            return self._stop_reply(self.last_event)
        if p == "qAttached":
            return b"1"
        if p == "qC":
            return b"QC%x" % self.target.current_tid()
        if p == "qfThreadInfo":
            return b"m" + ",".join("%x" % t for t in self.target.threads()).encode()
        if p == "qsThreadInfo":
            return b"l"
        if c == "H" and len(rest) >= 1:
            tid = int(rest[1:], 16) if rest[1:] not in ("", "-1", "0") else 0
            if rest[0] == "g" and tid:
                if self.target.thread(tid) is None:
                    return b"E02"
                self.thread = tid
            return b"OK"
        if c == "T":
            return b"OK" if self.target.thread(int(rest, 16)) is not None else b"E02"
        if c == "g":
            return self._read_registers().hex().encode()
        if c == "G":
            self._write_registers(bytes.fromhex(rest))
            return b"OK"
        if c == "p":
            return self._register(int(rest, 16)).hex().encode()
        if c == "P":
            n, value = rest.split("=")
            self._set_register(int(n, 16), bytes.fromhex(value))
            return b"OK"
        if c == "m":
            addr, length = (int(v, 16) for v in rest.split(","))
            try:
                return self.target.mem.read(addr, min(length, 0x4000)).hex().encode()
            except GuestFault:
                return b"E14"
        if c in "MX" and ":" in rest:
            head, data = rest.split(":", 1)
            addr, length = (int(v, 16) for v in head.split(","))
            raw = bytes.fromhex(data) if c == "M" else unescape(data.encode("latin-1"))
            try:
                self.target.mem.write(addr, raw[:length])
            except GuestFault:
                return b"E14"
            return b"OK"
        if c in "Zz" and len(rest) > 2:
            return self._point(c == "Z", rest)
        if p == "vCont?":
            return b"vCont;c;C;s;S"
        if p.startswith("vCont;"):
            return self._vcont(p[6:])
        if c in "cs" and not rest:
            return self._resume(step=c == "s")
        if c in "CS":
            return self._resume(step=c == "S", signo=int(rest.split(";")[0], 16))
        if p in ("bs", "bc"):
            event = self.target.reverse(step_tid=self.thread if p == "bs" else None)
            return self._stopped(event)
        if p == "k" or p.startswith("vKill"):
            raise Detach(kill=True)
        if c == "D":
            raise Detach(kill=False)
        return b""                                     # unknown: the protocol's "not supported"

    # --- registers ------------------------------------------------------------------
    def _state(self):
        proc = self.target.thread(self.thread) or self.target.thread(self.target.current_tid())
        if proc is None:
            raise ValueError("no live thread")
        return proc.state

    def _register(self, n: int) -> bytes:
        s = self._state()
        if n < 31:
            return struct.pack("<Q", int(s.x[n]))
        if n in (31, 32):
            return struct.pack("<Q", s.sp if n == 31 else s.pc)
        if n == 33:
            return struct.pack("<I", (s.nzcv & 15) << 28)
        if 34 <= n < 66:
            return struct.pack("<QQ", int(s.v[n - 34][0]), int(s.v[n - 34][1]))
        if n in (66, 67):
            return struct.pack("<I", (s.fpsr if n == 66 else s.fpcr) & 0xFFFFFFFF)
        raise ValueError(f"no register {n}")

    def _set_register(self, n: int, raw: bytes) -> None:
        s = self._state()
        if 34 <= n < 66:
            lo, hi = struct.unpack("<QQ", raw)
            s.v[n - 34][0], s.v[n - 34][1] = lo, hi
            return
        value = int.from_bytes(raw, "little")
        if n < 31:
            s.x[n] = value
        elif n == 31:
            s.sp = value
        elif n == 32:
            s.pc = value
        elif n == 33:
            s.nzcv = value >> 28
        elif n == 66:
            s.fpsr = value
        elif n == 67:
            s.fpcr = value
        else:
            raise ValueError(f"no register {n}")

    def _read_registers(self) -> bytes:
        return b"".join(self._register(n) for n in range(68))

    def _write_registers(self, raw: bytes) -> None:
        pos = 0
        for n in range(68):
            size = 8 if n < 33 else 4 if n in (33, 66, 67) else 16
            if pos + size > len(raw):
                break
            self._set_register(n, raw[pos:pos + size])
            pos += size

    # --- break and watch points -----------------------------------------------------------
    def _point(self, insert: bool, rest: str) -> bytes:
        kind, addr, length = rest.split(";")[0].split(",")
        kind, addr, length = int(kind), int(addr, 16), int(length, 16)
        t = self.target
        if kind in (0, 1):
            (t.breakpoints.add if insert else t.breakpoints.discard)(addr)
            return b"OK"
        if kind in (WRITE, READ, ACCESS) and 0 < length <= 4096:
            key = (kind, addr, length)
            if insert:
                t.watchpoints[key] = None
            else:
                t.watchpoints.pop(key, None)
            return b"OK"
        return b""

    # --- running ----------------------------------------------------------------------
    def _vcont(self, actions: str) -> bytes:
        step_tid, signo = None, 0
        for action in actions.split(";"):
            verb, _, tid = action.partition(":")
            if verb[0] in "sS" and (not tid or tid == "-1"):
                step_tid = self.thread
            elif verb[0] in "sS":
                step_tid = int(tid, 16)
            if verb[0] in "CS":
                signo = int(verb[1:], 16)
        return self._resume(step=step_tid is not None, signo=signo, tid=step_tid)

    def _resume(self, *, step: bool, signo: int = 0, tid: int | None = None) -> bytes:
        t = self.target
        last = self.last_event
        if signo and last.kind == "signal" and LINUX_SIGNAL.get(signo) == last.signo:
            proc = t.thread(last.tid)
            if proc is not None:
                t.pass_signal[last.tid] = proc.state.pc     # let the kernel deliver it this time
        tid = tid if tid is not None else self.thread
        event = t.resume(step_tid=tid if step else None, interrupted=self.interrupted)
        return self._stopped(event)

    def _stopped(self, event: Event) -> bytes:
        self.last_event = event
        if event.kind != "exited":
            self.thread = event.tid if self.target.thread(event.tid) else self.target.current_tid()
        return self._stop_reply(event)

    def _stop_reply(self, event: Event) -> bytes:
        if event.kind == "exited":
            status = event.status
            if status & 0x7F:
                return b"X%02x" % GDB_SIGNAL.get(status & 0x7F, 0)
            return b"W%02x" % ((status >> 8) & 0xFF)
        signo = GDB_SIGNAL.get(event.signo, 5)
        reply = b"T%02xthread:%x;" % (signo, event.tid)
        if event.kind == "watch":
            reply += b"%s:%x;" % (WATCH_NAMES[event.watch].encode(), event.address)
        elif event.kind == "breakpoint":
            reply += b"swbreak:;"
        elif event.kind == "history-begin":
            reply += b"replaylog:begin;"
        elif event.kind == "history-end":
            reply += b"replaylog:end;"
        return reply

    # --- qXfer objects ----------------------------------------------------------------
    def _xfer(self, p: str) -> bytes:
        parts = p.split(":")
        if len(parts) < 5 or parts[2] != "read":
            return b""
        obj, annex, span = parts[1], parts[3], parts[4]
        offset, length = (int(v, 16) for v in span.split(","))
        if obj == "features" and annex == "target.xml":
            data = target_xml().encode()
        elif obj == "auxv":
            data = self._auxv()
        elif obj == "exec-file":
            data = self.exe_path.encode()
        else:
            return b""
        chunk = data[offset:offset + length]
        return (b"l" if offset + length >= len(data) else b"m") + chunk

    def _auxv(self) -> bytes:
        """The auxiliary vector the process started with, read back from its initial stack."""
        mem = self.target.mem
        sp = self.initial_sp
        argc = mem.read_u64(sp)
        at = sp + 8 * (argc + 2)
        while mem.read_u64(at):                        # environment pointers
            at += 8
        at += 8
        out = bytearray()
        while True:
            key, value = mem.read_u64(at), mem.read_u64(at + 8)
            out += struct.pack("<QQ", key, value)
            at += 16
            if key == abi.AT_NULL or len(out) > 4096:
                return bytes(out)


# --- the socket side ---------------------------------------------------------------------
def listen(port: int, host: str = "127.0.0.1") -> socket.socket:
    """A listening socket; OSError (e.g. address in use) is the caller's to report."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        server.bind((host, port))
        server.listen(1)
    except OSError:
        server.close()
        raise
    return server


class Connection:
    """Packet framing over one socket."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.buffer = bytearray()
        self.ack = True
        self.interrupt_seen = False

    def _fill(self) -> bool:
        data = self.sock.recv(65536)
        if not data:
            return False
        self.buffer += data
        return True

    def packet(self) -> bytes | None:
        """The next well-formed packet (bad checksums are NAKed and skipped); None at EOF."""
        while True:
            start = self.buffer.find(b"$")
            if 3 in self.buffer[: start if start >= 0 else len(self.buffer)]:
                self.interrupt_seen = True
            if start < 0:
                self.buffer.clear()
                if not self._fill():
                    return None
                continue
            end = self.buffer.find(b"#", start)
            if end < 0 or len(self.buffer) < end + 3:
                del self.buffer[:start]
                if not self._fill():
                    return None
                continue
            payload = bytes(self.buffer[start + 1:end])
            given = bytes(self.buffer[end + 1:end + 3])
            del self.buffer[:end + 3]
            if given.lower() == checksum(payload):
                if self.ack:
                    self.sock.sendall(b"+")
                return payload
            if self.ack:
                self.sock.sendall(b"-")

    def send(self, payload: bytes) -> None:
        self.sock.sendall(frame(payload))

    def poll_interrupt(self) -> bool:
        """True once gdb sent 0x03 (checked without blocking, while the guest runs)."""
        if not self.interrupt_seen:
            ready, _, _ = select.select([self.sock], [], [], 0)
            if ready:
                try:
                    data = self.sock.recv(4096)
                except OSError:
                    data = b""
                if not data:
                    self.interrupt_seen = True        # gone: stop, the packet loop sees EOF
                self.buffer += data
                if 3 in data:
                    self.interrupt_seen = True
        seen, self.interrupt_seen = self.interrupt_seen, False
        return seen


def serve(stub: Stub, server: socket.socket) -> str:
    """Accept one gdb and answer it until it detaches, kills or drops; returns which."""
    sock, _ = server.accept()
    server.close()
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    conn = Connection(sock)
    stub.interrupted = conn.poll_interrupt
    try:
        while True:
            try:
                payload = conn.packet()
            except OSError:
                return "dropped"
            if payload is None:
                return "dropped"
            try:
                reply = stub.handle(payload)
            except Detach as detach:
                if not detach.kill:
                    conn.send(b"OK")
                return "killed" if detach.kill else "detached"
            if payload == b"QStartNoAckMode":
                conn.send(reply)
                conn.ack = False
                continue
            try:
                conn.send(reply)
            except OSError:
                return "dropped"
    finally:
        sock.close()
