"""The machine's only doors to the host while it runs: --publish and the terminal.

`HostIO.pump(timeout)` is called by the scheduler at the start of every
slice (timeout 0) and, when every guest thread is blocked, with no timeout:
it waits on the host for what could unblock a guest (a connection to a
published port, bytes from a host client, a key on the terminal, a Ctrl-C)
and moves it into the machine.  Without published ports or a terminal it
has nothing to wait for, and a machine whose threads are all blocked is
deadlocked as before.

--publish HOSTPORT:GUESTPORT listens on the host's 127.0.0.1:HOSTPORT only;
each connection becomes a connection to the guest's listener on GUESTPORT
(v4 loopback, or a v6 socket bound to ::), whose other end is the host
socket.  What arrives from the host, and when, depends on host timing:
runs with --publish are not deterministic.
"""

from __future__ import annotations

import errno
import os
import select
import signal
import socket
import time

from .net import LOOP4, inet_sockaddr
from .sockets import AF_INET, SOCK_STREAM, StreamSocket

CHUNK = 65536
FORWARDED = (signal.SIGINT, signal.SIGQUIT, signal.SIGWINCH)


class PublishError(Exception):
    """A host port could not be listened on."""


class Bridge:
    """A host client's connection: `end` is the host side of a guest stream socket."""

    def __init__(self, sock: socket.socket, end: StreamSocket):
        self.sock, self.end = sock, end
        self.host_eof = False       # the host client shut down its writing side
        self.sent_eof = False       # we shut down ours (the guest closed its side)

    def done(self) -> bool:
        guest_closed = self.end.rx.eof and self.end.rx.size == 0
        return (self.host_eof or self.end.tx.reader_gone) and guest_closed


class HostIO:
    def __init__(self, kernel):
        self.kernel = kernel
        self.listeners: list[tuple[socket.socket, int]] = []
        self.bridges: list[Bridge] = []
        self.tty_wanted: set[int] = set()     # host terminal fds a guest waits to read
        self.signals: list[int] = []          # host signals to forward to the guest's foreground group
        self.wake_r = self.wake_w = -1
        self.old_handlers: dict[int, object] = {}
        self.tty_pgrp: int | None = None      # the terminal's foreground process group (TIOCSPGRP)
        self.terminal_fd: int | None = None   # a host descriptor of the terminal the machine runs in

    # --- set-up and tear-down ------------------------------------------------------------
    def publish(self, host_port: int, guest_port: int) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", host_port))
            sock.listen(64)
        except OSError as error:
            sock.close()
            raise PublishError(f"cannot listen on 127.0.0.1:{host_port}: {error.strerror or error}") from None
        sock.setblocking(False)
        self.listeners.append((sock, guest_port))

    def forward_signals(self) -> None:
        """Ctrl-C, Ctrl-\\ and window-size changes of the host terminal go to the guest (main thread only)."""
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_w, False)
        os.set_blocking(self.wake_r, False)
        signal.set_wakeup_fd(self.wake_w)
        for signo in FORWARDED:
            self.old_handlers[signo] = signal.signal(signo, self._on_signal)

    def _on_signal(self, signo, frame) -> None:
        self.signals.append(signo)

    def close(self, flush_s: float = 10.0) -> None:
        """End host I/O; what the guest wrote to host clients is still delivered (for up to flush_s)."""
        end = time.monotonic() + flush_s
        while any(b.end.rx.size for b in self.bridges) and time.monotonic() < end:
            self.pump(0.1)
        for sock, _ in self.listeners:
            sock.close()
        for bridge in self.bridges:
            bridge.sock.close()
        self.listeners.clear()
        self.bridges.clear()
        if self.old_handlers:
            for signo, handler in self.old_handlers.items():
                signal.signal(signo, handler)
            signal.set_wakeup_fd(-1)
            self.old_handlers.clear()
        for fd in (self.wake_r, self.wake_w):
            if fd >= 0:
                os.close(fd)
        self.wake_r = self.wake_w = -1

    # --- the pump ----------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        """Is there anything to look at on the host between slices?"""
        return bool(self.listeners or self.bridges or self.tty_wanted or self.signals or self.wake_r >= 0)

    def can_wait(self) -> bool:
        """When every guest thread is blocked: could the host still unblock one?"""
        return bool(self.listeners or self.bridges or self.tty_wanted)

    def pump(self, timeout: float | None) -> bool:
        """Move what the host has for the machine; True if anything moved. None: wait until something can."""
        progress = self._deliver_signals()
        readers: list = [sock for sock, _ in self.listeners]
        writers: list = []
        for bridge in self.bridges:
            if not bridge.host_eof and bridge.end.tx.room() > 0:
                readers.append(bridge.sock)
            if bridge.end.rx.size:
                writers.append(bridge.sock)
        readers += sorted(self.tty_wanted)
        if self.wake_r >= 0:
            readers.append(self.wake_r)
        if not readers and not writers:
            return progress
        if progress:
            timeout = 0
        try:
            ready_r, ready_w, _ = select.select(readers, writers, [], timeout)
        except InterruptedError:
            ready_r, ready_w = [], []
        self.tty_wanted.clear()              # a guest still waiting asks again on its retry
        for sock, guest_port in self.listeners:
            if sock in ready_r:
                progress |= self._accept(sock, guest_port)
        for bridge in list(self.bridges):
            if bridge.sock in ready_r:
                progress |= self._from_host(bridge)
            if bridge.sock in ready_w:
                progress |= self._to_host(bridge)
            self._finish(bridge)
        if self.wake_r in ready_r:
            try:
                os.read(self.wake_r, 512)
            except BlockingIOError:
                pass
        progress |= self._deliver_signals()
        ready_tty = any(isinstance(r, int) and r != self.wake_r for r in ready_r)
        return progress or ready_tty

    def _accept(self, sock: socket.socket, guest_port: int) -> bool:
        try:
            conn, (host, port) = sock.accept()
        except (BlockingIOError, InterruptedError):
            return False
        conn.setblocking(False)
        net = self.kernel.net
        listener = net.receiver("tcp", (4, LOOP4), guest_port, listening=True)
        if listener is None:
            conn.close()                     # nobody listens in the guest: the client sees the door shut
            return True
        server = StreamSocket(net, listener.family, SOCK_STREAM, 6, 0)
        end = StreamSocket(net, AF_INET, SOCK_STREAM, 6, 0)
        v4 = LOOP4 if listener.family == AF_INET else bytes(10) + b"\xff\xff" + LOOP4
        server.sockaddr = inet_sockaddr(listener.family, v4, guest_port)
        if not listener.enqueue(server):
            conn.close()
            return True
        server.connect_to(end, inet_sockaddr(listener.family, v4, port))
        server.peer_cred = (0, self.kernel.uid, self.kernel.gid)
        self.bridges.append(Bridge(conn, end))
        return True

    def _from_host(self, bridge: Bridge) -> bool:
        end = bridge.end
        try:
            data = bridge.sock.recv(min(CHUNK, max(end.tx.room(), 1)))
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            data = b""
        if not data:
            bridge.host_eof = True
            end.tx.eof = True
        elif not end.tx.reader_gone:
            end.tx.push(data)
        end.peer.changes += 1
        return True

    def _to_host(self, bridge: Bridge) -> bool:
        rx = bridge.end.rx
        data, _ = rx.pull(CHUNK, peek=True)
        try:
            sent = bridge.sock.send(data)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError as error:
            if error.errno in (errno.EPIPE, errno.ECONNRESET):
                rx.reader_gone = True
                rx.discard()
                return True
            raise
        rx.pull(sent)
        bridge.end.peer.changes += 1
        return True

    def _finish(self, bridge: Bridge) -> None:
        rx = bridge.end.rx
        if rx.eof and rx.size == 0 and not bridge.sent_eof:
            bridge.sent_eof = True
            try:
                bridge.sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass
        if bridge.done():
            bridge.sock.close()
            self.bridges.remove(bridge)

    # --- signals from the host terminal ----------------------------------------------------------
    def _deliver_signals(self) -> bool:
        if not self.signals:
            return False
        kernel = self.kernel
        pending, self.signals = self.signals, []
        for signo in pending:
            group = self.foreground()
            targets = [p for p in kernel.procs.values() if p.alive and p.pgid == group]
            if not targets:
                if signo == signal.SIGINT:
                    raise KeyboardInterrupt
                continue
            for proc in targets:
                kernel.send_signal(proc, int(signo))
        return True

    def foreground(self) -> int:
        if self.tty_pgrp is None:
            return self.kernel.init.pgid if self.kernel.init is not None else 0
        return self.tty_pgrp
