"""Socket open files: byte streams (AF_UNIX stream, TCP) and datagrams (AF_UNIX dgram, UDP).

Sockets live in Python, like pipes: a connected stream is two Channels, one
per direction, so a blocked recv or accept is a scheduler decision (the call
raises WouldBlock and is retried) and a run stays deterministic.  Names and
ports are kept by `net.Network`; a connection from the host (--publish)
is a stream whose other end is a host socket pumped by `hostio`.
"""

from __future__ import annotations

import errno
from collections import deque

from . import abi
from .errors import SyscallError, WouldBlock
from .events import POLLERR, POLLHUP, POLLIN, POLLOUT, POLLRDHUP
from .files import FakeStat, OpenFile

AF_UNIX, AF_INET, AF_INET6 = 1, 2, 10
SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET = 1, 2, 5
BUFFER = 212992            # Linux's default socket buffer (net.core.wmem_default)

MSG_PEEK, MSG_TRUNC, MSG_DONTWAIT, MSG_WAITALL = 0x2, 0x20, 0x40, 0x100


class Channel:
    """One direction of a stream: segments of bytes, some carrying descriptors (SCM_RIGHTS)."""

    def __init__(self, capacity: int = BUFFER):
        self.segments: deque[list] = deque()     # [bytearray, files or None]
        self.size = 0
        self.capacity = capacity
        self.eof = False            # the writer shut down or closed
        self.reader_gone = False    # the reader closed (or shut down reading): writes fail EPIPE

    def room(self) -> int:
        return self.capacity - self.size

    def push(self, data: bytes, files=None) -> None:
        if files or not self.segments or self.segments[-1][1]:
            self.segments.append([bytearray(data), files or None])
        else:
            self.segments[-1][0] += data
        self.size += len(data)

    def pull(self, n: int, peek: bool = False) -> tuple[bytes, list]:
        """Up to n bytes; stops after the first segment that carries descriptors (as Linux)."""
        out, files = bytearray(), []
        for segment in list(self.segments):
            if len(out) >= n:
                break
            data, attached = segment
            take = data[:n - len(out)]
            out += take
            if not peek:
                del data[:len(take)]
                self.size -= len(take)
            if attached:
                files = attached
                if not peek:
                    segment[1] = None
            if not peek and not data:
                self.segments.popleft()
            if attached:
                break
        return bytes(out), files

    def discard(self) -> None:
        """Nobody will read again: in-flight descriptors are closed."""
        for _, attached in self.segments:
            for file in attached or ():
                file.drop()
        self.segments.clear()
        self.size = 0


class Socket(OpenFile):
    """What every socket has: a family, a type, options, a bound name."""

    def __init__(self, net, family: int, type_: int, protocol: int, flags: int):
        super().__init__(flags | 2)
        self.net = net
        self.family, self.type, self.protocol = family, type_, protocol
        self.ino = net.new_ino()
        self.name = None            # net's key of the bound address (None: unbound)
        self.sockaddr = b""         # getsockname's answer once bound
        self.options: dict[tuple[int, int], int] = {}
        self.changes = 0            # bumped when data or a connection arrives (epoll ET)
        self.error = 0              # SO_ERROR, read once

    @property
    def guest_path(self) -> str:
        return f"socket:[{self.ino}]"

    def nonblocking(self, flags: int = 0) -> bool:
        return bool(self.flags & abi.O_NONBLOCK or flags & MSG_DONTWAIT)

    def block(self, flags: int = 0):
        raise SyscallError(errno.EAGAIN) if self.nonblocking(flags) else WouldBlock()

    def stat(self):
        return FakeStat(abi.S_IFSOCK | 0o777, ino=self.ino, dev=8)

    def read(self, n: int) -> bytes:
        return self.recv(n, 0)[0]

    def write(self, data: bytes) -> int:
        return self.send(data, 0)

    def release(self) -> None:
        self.net.unbind(self)


class StreamSocket(Socket):
    """AF_UNIX SOCK_STREAM or TCP: new -> listening (a backlog) or connected (two channels)."""

    def __init__(self, net, family, type_, protocol, flags):
        super().__init__(net, family, type_, protocol, flags)
        self.state = "new"
        self.backlog: deque[StreamSocket] = deque()
        self.backlog_max = 0
        self.rx: Channel | None = None
        self.tx: Channel | None = None
        self.peer: StreamSocket | None = None
        self.peer_sockaddr = b""
        self.peer_cred = (0, 0, 0)
        self.shut_rd = self.shut_wr = False
        self.in_progress = False    # a non-blocking TCP connect answered EINPROGRESS

    def connect_to(self, other: "StreamSocket", peer_sockaddr: bytes) -> None:
        """Join self and other with a fresh pair of channels."""
        a, b = Channel(), Channel()
        self.rx, self.tx, other.rx, other.tx = a, b, b, a
        self.peer, other.peer = other, self
        self.peer_sockaddr = peer_sockaddr
        self.state = other.state = "connected"

    def enqueue(self, server_side: "StreamSocket") -> bool:
        """A new connection for this listener (False: its backlog is full)."""
        if len(self.backlog) > self.backlog_max:
            return False
        self.backlog.append(server_side)
        self.changes += 1
        return True

    def recv(self, n: int, flags: int, *, want_files: bool = False) -> tuple[bytes, list]:
        if self.state != "connected":
            raise SyscallError(errno.EINVAL if self.family == AF_UNIX and self.state == "listening"
                               else errno.ENOTCONN if self.family != AF_UNIX else errno.EINVAL)
        rx = self.rx
        ended = rx.eof or self.shut_rd
        if n == 0:
            return b"", []
        if rx.size == 0 and self.error:               # the peer closed with our data unread: a reset
            error, self.error = self.error, 0
            raise SyscallError(error)
        if rx.size == 0 or (flags & MSG_WAITALL and rx.size < n and not ended):
            if ended:
                return b"", []
            self.block(flags)
        data, files = rx.pull(n, peek=bool(flags & MSG_PEEK))
        if files and not want_files and not flags & MSG_PEEK:
            for file in files:                # received without a control buffer: closed
                file.drop()
            files = []
        return data, files

    def send(self, data: bytes, flags: int, files=None) -> int:
        if self.state != "connected":
            raise SyscallError(errno.ENOTCONN if self.family == AF_UNIX else errno.EPIPE)
        tx = self.tx
        if self.shut_wr or tx.reader_gone:
            raise SyscallError(errno.EPIPE)
        if not data and not files:
            return 0
        room = tx.room()
        if room <= 0 or (files and room < len(data)):
            self.block(flags)
        chunk = data[:room]
        tx.push(chunk, files)
        if self.peer is not None:
            self.peer.changes += 1
        return len(chunk)

    def shutdown(self, how: int) -> None:
        if self.state != "connected":
            raise SyscallError(errno.ENOTCONN)
        if how in (0, 2):                           # SHUT_RD
            self.shut_rd = True
            if self.family == AF_UNIX:
                self.rx.reader_gone = True
        if how in (1, 2):                           # SHUT_WR
            self.shut_wr = True
            self.tx.eof = True
        if self.peer is not None:
            self.peer.changes += 1

    def poll_events(self) -> int:
        if self.state == "listening":
            return POLLIN if self.backlog else 0
        if self.state != "connected":
            return POLLOUT | POLLHUP if self.family == AF_UNIX else POLLHUP
        events = POLLERR if self.error else 0
        rx, tx = self.rx, self.tx
        if rx.size or rx.eof or self.shut_rd:
            events |= POLLIN
        if rx.eof or self.shut_rd:
            events |= POLLRDHUP
        if (rx.eof or self.shut_rd) and (self.shut_wr or tx.reader_gone):
            events |= POLLHUP
        if not self.shut_wr and not tx.reader_gone and tx.room() > 0:
            events |= POLLOUT
        if tx.reader_gone and not self.shut_wr and self.family != AF_UNIX:
            events |= POLLERR
        return events

    def available(self) -> int:
        return self.rx.size if self.rx is not None else 0

    def release(self) -> None:
        super().release()
        if self.state == "listening":
            while self.backlog:                     # connections never accepted are dropped
                self.backlog.popleft().release()
        if self.state == "connected":
            self.tx.eof = True
            self.rx.reader_gone = True
            if self.rx.size and self.peer is not None:
                self.peer.error = errno.ECONNRESET      # closed with data unread: Linux resets
            self.rx.discard()
            if self.peer is not None:
                self.peer.changes += 1
        self.state = "closed"


class Datagram:
    __slots__ = ("data", "source", "files")

    def __init__(self, data: bytes, source: bytes, files):
        self.data, self.source, self.files = data, source, files


class DgramSocket(Socket):
    """AF_UNIX SOCK_DGRAM or UDP: a queue of whole messages, each with its sender's address."""

    def __init__(self, net, family, type_, protocol, flags):
        super().__init__(net, family, type_, protocol, flags)
        self.queue: deque[Datagram] = deque()
        self.queued = 0
        self.peer_name = None          # connect(): default destination (net's key)
        self.peer_sockaddr = b""
        self.shut_rd = self.shut_wr = False
        self.closed = False

    def room(self) -> int:
        return BUFFER - self.queued

    def deliver(self, data: bytes, source: bytes, files) -> bool:
        """Queue a message (False: no room)."""
        if self.closed or self.shut_rd:
            for file in files or ():
                file.drop()
            return True                       # dropped, as the receiver discards it
        if self.queued + len(data) > BUFFER and self.queue:
            return False
        self.queue.append(Datagram(data, source, files))
        self.queued += len(data)
        self.changes += 1
        return True

    def recv(self, n: int, flags: int, *, want_files: bool = False) -> tuple[bytes, list]:
        data, _source, files, _full = self.recv_from(n, flags, want_files=want_files)
        return data, files

    def recv_from(self, n: int, flags: int, *, want_files: bool = False):
        """(data, source sockaddr, files, full length) of the next message."""
        if not self.queue:
            if self.shut_rd:
                return b"", b"", [], 0
            self.block(flags)
        message = self.queue[0]
        files = message.files or []
        if not flags & MSG_PEEK:
            self.queue.popleft()
            self.queued -= len(message.data)
            if files and not want_files:
                for file in files:
                    file.drop()
                files = []
        return message.data[:n], message.source, files, len(message.data)

    def send(self, data: bytes, flags: int, files=None) -> int:
        if self.peer_name is None:
            raise SyscallError(errno.ENOTCONN if self.family == AF_UNIX else errno.EDESTADDRREQ)
        return self.net.send_datagram(self, self.peer_name, data, flags, files)

    def shutdown(self, how: int) -> None:
        if self.peer_name is None and self.family != AF_UNIX:
            raise SyscallError(errno.ENOTCONN)
        if how in (0, 2):
            self.shut_rd = True
        if how in (1, 2):
            self.shut_wr = True

    def poll_events(self) -> int:
        events = POLLOUT if not self.shut_wr else 0
        if self.queue or self.shut_rd:
            events |= POLLIN
        if self.shut_rd and self.shut_wr:
            events |= POLLHUP
        return events

    def available(self) -> int:
        return len(self.queue[0].data) if self.queue else 0

    def release(self) -> None:
        super().release()
        self.closed = True
        for message in self.queue:
            for file in message.files or ():
                file.drop()
        self.queue.clear()
