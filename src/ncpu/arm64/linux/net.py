"""The machine's network: who is bound to which name, and how connections are made.

One Network per kernel.  AF_UNIX names are abstract (a byte string) or a path
in the guest root (a socket inode that bind creates with mknod; connect finds
the socket by that inode, so a renamed or unlinked file behaves as in Linux).
AF_INET/AF_INET6 exist only on the machine's own loopback: 127.0.0.0/8 and
::1 (and ::ffff:127.x.y.z); binding another address is EADDRNOTAVAIL and
reaching one is ENETUNREACH, so a guest cannot touch any host address
(`--publish` forwards host connections in, see hostio).  A v6 socket bound to
:: also takes v4 traffic unless IPV6_V6ONLY is set.  Ephemeral ports and
autobound abstract names are handed out in order, so runs are deterministic.
"""

from __future__ import annotations

import errno
import os
import stat as stat_mod
import struct

from .errors import SyscallError
from .sockets import (AF_INET, AF_INET6, AF_UNIX, SOCK_STREAM, DgramSocket, Socket,
                      StreamSocket)

FIRST_EPHEMERAL, LAST_EPHEMERAL = 32768, 60999      # Linux's ip_local_port_range
MAX_UDP = 65507
SOL_SOCKET, SO_REUSEADDR = 1, 2
IPPROTO_IPV6, IPV6_V6ONLY = 41, 26
ANY4, LOOP4 = bytes(4), bytes([127, 0, 0, 1])
ANY6, LOOP6 = bytes(16), bytes(15) + b"\x01"
MAPPED = bytes(10) + b"\xff\xff"


# --- addresses ---------------------------------------------------------------------
def unix_sockaddr(kind: str, name: bytes) -> bytes:
    head = struct.pack("<H", AF_UNIX)
    if kind == "path":
        return head + name + b"\0"
    if kind == "abstract":
        return head + b"\0" + name
    return head


def inet_sockaddr(family: int, ip: bytes, port: int) -> bytes:
    if family == AF_INET:
        return struct.pack("<H", AF_INET) + port.to_bytes(2, "big") + ip + bytes(8)
    return struct.pack("<H", AF_INET6) + port.to_bytes(2, "big") + bytes(4) + ip + bytes(4)


def parse_unix(raw: bytes) -> tuple[str, bytes]:
    """("path", p) / ("abstract", name) / ("unnamed", b"") from a sockaddr_un of len(raw) bytes."""
    if len(raw) < 2 or struct.unpack_from("<H", raw)[0] != AF_UNIX:
        raise SyscallError(errno.EINVAL)
    if len(raw) > 110:
        raise SyscallError(errno.EINVAL)
    path = raw[2:]
    if not path:
        return "unnamed", b""
    if path[0] == 0:
        return "abstract", path[1:]
    return "path", path.split(b"\0", 1)[0]


def parse_inet(family: int, raw: bytes) -> tuple[bytes, int]:
    """(ip, port) of a sockaddr_in / sockaddr_in6 (EINVAL if too short, EAFNOSUPPORT if another family)."""
    if len(raw) < 2:
        raise SyscallError(errno.EINVAL)
    given = struct.unpack_from("<H", raw)[0]
    if family == AF_INET:
        if len(raw) < 16:
            raise SyscallError(errno.EINVAL)
        if given != AF_INET:
            raise SyscallError(errno.EAFNOSUPPORT)
        return raw[4:8], int.from_bytes(raw[2:4], "big")
    if len(raw) < 24:
        raise SyscallError(errno.EINVAL)
    if given != AF_INET6:
        raise SyscallError(errno.EAFNOSUPPORT)
    return raw[8:24], int.from_bytes(raw[2:4], "big")


def _canon(family: int, ip: bytes) -> tuple[int, bytes]:
    """(4, v4 address) for AF_INET and v4-mapped v6 addresses, else (6, address)."""
    if family == AF_INET:
        return 4, ip
    if ip.startswith(MAPPED):
        return 4, ip[12:]
    return 6, ip


def _in_family(family: int, canon: tuple[int, bytes]) -> bytes:
    """A canonical address as the socket of `family` reports it (v4 seen by v6: mapped)."""
    version, ip = canon
    if family == AF_INET:
        return ip
    return MAPPED + ip if version == 4 else ip


def _loopback(canon: tuple[int, bytes]) -> bool:
    version, ip = canon
    return ip[0] == 127 if version == 4 else ip == LOOP6


def _any(canon: tuple[int, bytes]) -> bool:
    return canon[1] in (ANY4, ANY6)


class Network:
    def __init__(self, kernel):
        self.kernel = kernel
        self.next_ino = 0x4000
        self.abstract: dict[bytes, Socket] = {}
        self.paths: dict[tuple[int, int], Socket] = {}
        self.ports: dict[tuple[str, int], list[Socket]] = {}
        self.next_port = FIRST_EPHEMERAL
        self.next_auto = 0

    def new_ino(self) -> int:
        self.next_ino += 1
        return self.next_ino

    def new_socket(self, family: int, type_: int, protocol: int, flags: int) -> Socket:
        cls = StreamSocket if type_ == SOCK_STREAM else DgramSocket
        return cls(self, family, type_, protocol, flags)

    # --- binding -----------------------------------------------------------------------
    def bind(self, p, sock: Socket, raw: bytes) -> None:
        if sock.name is not None:
            raise SyscallError(errno.EINVAL)
        if sock.family == AF_UNIX:
            kind, name = parse_unix(raw)
            if kind == "unnamed":
                self.autobind_unix(sock)
            elif kind == "abstract":
                if name in self.abstract:
                    raise SyscallError(errno.EADDRINUSE)
                self.abstract[name] = sock
                sock.name, sock.sockaddr = ("abstract", name), unix_sockaddr(kind, name)
            else:
                self._bind_path(p, sock, name)
            return
        ip, port = parse_inet(sock.family, raw)
        canon = _canon(sock.family, ip)
        if not (_any(canon) or _loopback(canon)) or (sock.family == AF_INET6 and canon[0] == 4 and self.v6only(sock)):
            raise SyscallError(errno.EADDRNOTAVAIL)
        self._bind_port(sock, canon, port)

    def _bind_path(self, p, sock: Socket, path: bytes) -> None:
        node = self.kernel.fs.resolve(path, p.cwd, fd_links=p.fds.files)
        if node.kind != "host":
            raise SyscallError(errno.EADDRINUSE)
        if node.exists:
            raise SyscallError(errno.EADDRINUSE)
        try:
            os.mknod(node.host_path, stat_mod.S_IFSOCK | (0o777 & ~p.umask))
            st = os.stat(node.host_path)
        except OSError as error:
            raise SyscallError(error.errno or errno.EIO) from None
        self.paths[(st.st_dev, st.st_ino)] = sock
        sock.name, sock.sockaddr = ("path", (st.st_dev, st.st_ino)), unix_sockaddr("path", path)

    def autobind_unix(self, sock: Socket) -> None:
        while True:
            name = f"{self.next_auto:05x}".encode()
            self.next_auto += 1
            if name not in self.abstract:
                break
        self.abstract[name] = sock
        sock.name, sock.sockaddr = ("abstract", name), unix_sockaddr("abstract", name)

    def _kind(self, sock: Socket) -> str:
        return "tcp" if sock.type == SOCK_STREAM else "udp"

    def _bind_port(self, sock: Socket, canon, port: int) -> None:
        kind = self._kind(sock)
        if port == 0:
            port = self._ephemeral(kind)
        for other in self.ports.get((kind, port), []):
            if self._overlap(sock, canon, other) and not self._reusable(sock, other):
                raise SyscallError(errno.EADDRINUSE)
        self.ports.setdefault((kind, port), []).append(sock)
        sock.name = (kind, port, canon)
        sock.sockaddr = inet_sockaddr(sock.family, _in_family(sock.family, canon), port)

    def _ephemeral(self, kind: str) -> int:
        for _ in range(LAST_EPHEMERAL - FIRST_EPHEMERAL + 1):
            port = self.next_port
            self.next_port = port + 1 if port < LAST_EPHEMERAL else FIRST_EPHEMERAL
            if not self.ports.get((kind, port)):
                return port
        raise SyscallError(errno.EADDRNOTAVAIL)

    def v6only(self, sock: Socket) -> bool:
        return bool(sock.options.get((IPPROTO_IPV6, IPV6_V6ONLY), 0))

    def _overlap(self, sock: Socket, canon, other: Socket) -> bool:
        theirs = other.name[2]
        return self._covers(sock, canon, theirs) or self._covers(other, theirs, canon)

    def _covers(self, sock: Socket, canon, target) -> bool:
        """Does sock, bound to canon, take traffic addressed to target?"""
        if canon == target:
            return True
        if not _any(canon):
            return False
        if sock.family == AF_INET:
            return target[0] == 4
        return target[0] == 6 or not self.v6only(sock)

    def _reusable(self, sock: Socket, other: Socket) -> bool:
        reuse = (SOL_SOCKET, SO_REUSEADDR)
        return bool(sock.options.get(reuse) and other.options.get(reuse)
                    and getattr(other, "state", "") != "listening")

    def ensure_bound(self, sock: Socket, toward=None) -> None:
        """Give an unbound socket a name before it connects or sends (autobind)."""
        if sock.name is not None:
            return
        if sock.family == AF_UNIX:
            return                      # unix senders stay unnamed
        any_ip = (4, ANY4) if sock.family == AF_INET else (6, ANY6)
        self._bind_port(sock, any_ip, 0)

    def unbind(self, sock: Socket) -> None:
        name, sock.name = sock.name, None
        if name is None:
            return
        if name[0] == "abstract":
            self.abstract.pop(name[1], None)
        elif name[0] == "path":
            if self.paths.get(name[1]) is sock:
                del self.paths[name[1]]
        else:
            bound = self.ports.get((name[0], name[1]), [])
            if sock in bound:
                bound.remove(sock)

    # --- finding a destination ----------------------------------------------------------------
    def lookup_unix(self, p, raw: bytes) -> tuple[Socket, bytes]:
        kind, name = parse_unix(raw)
        if kind == "unnamed":
            raise SyscallError(errno.EINVAL)
        if kind == "abstract":
            target = self.abstract.get(name)
            if target is None:
                raise SyscallError(errno.ECONNREFUSED)
            return target, target.sockaddr
        node = self.kernel.fs.resolve(name, p.cwd, fd_links=p.fds.files)
        if node.kind != "host" or not node.exists:
            raise SyscallError(errno.ENOENT)
        try:
            st = os.stat(node.host_path)
        except OSError as error:
            raise SyscallError(error.errno or errno.EIO) from None
        target = self.paths.get((st.st_dev, st.st_ino)) if stat_mod.S_ISSOCK(st.st_mode) else None
        if target is None:
            raise SyscallError(errno.ECONNREFUSED)
        return target, target.sockaddr

    def destination(self, sock: Socket, raw: bytes) -> tuple[tuple[int, bytes], int]:
        """(canonical address, port) of an AF_INET(6) destination on the loopback (ENETUNREACH otherwise)."""
        ip, port = parse_inet(sock.family, raw)
        canon = _canon(sock.family, ip)
        if _any(canon):
            canon = (4, LOOP4) if canon[0] == 4 else (6, LOOP6)
        if not _loopback(canon):
            raise SyscallError(errno.ENETUNREACH)
        if sock.family == AF_INET6 and canon[0] == 4 and self.v6only(sock):
            raise SyscallError(errno.ENETUNREACH)
        return canon, port

    def receiver(self, kind: str, canon, port: int, *, listening: bool):
        """The socket that takes traffic for (canon, port): exact address first, then wildcards."""
        candidates = [s for s in self.ports.get((kind, port), [])
                      if (not listening or getattr(s, "state", "") == "listening")
                      and self._covers(s, s.name[2], canon)]
        candidates.sort(key=lambda s: _any(s.name[2]))
        return candidates[0] if candidates else None

    # --- streams -------------------------------------------------------------------------------
    def listen(self, p, sock: StreamSocket, backlog: int) -> None:
        if sock.state not in ("new", "listening"):
            raise SyscallError(errno.EINVAL)
        if sock.family == AF_UNIX and sock.name is None:
            raise SyscallError(errno.EINVAL)
        self.ensure_bound(sock)
        sock.state = "listening"
        sock.backlog_max = max(0, min(backlog, 4096))
        sock.peer_cred = (p.tgid, self.kernel.uid, self.kernel.gid)

    def connect_stream(self, p, sock: StreamSocket, raw: bytes) -> None:
        if sock.state == "connected":
            raise SyscallError(errno.EISCONN)
        if sock.state == "listening":
            raise SyscallError(errno.EINVAL)
        me = (p.tgid, self.kernel.uid, self.kernel.gid)
        if sock.family == AF_UNIX:
            target, target_addr = self.lookup_unix(p, raw)
            if not isinstance(target, StreamSocket) or target.type != sock.type:
                raise SyscallError(errno.EPROTOTYPE)
            if target.state != "listening":
                raise SyscallError(errno.ECONNREFUSED)
            server = StreamSocket(self, AF_UNIX, sock.type, 0, 0)
            server.sockaddr = target.sockaddr
            if not target.enqueue(server):
                sock.block()
            sock.connect_to(server, target_addr)
            server.peer_sockaddr = sock.sockaddr or unix_sockaddr("unnamed", b"")
            sock.peer_cred, server.peer_cred = target.peer_cred, me
            return
        canon, port = self.destination(sock, raw)
        listener = self.receiver("tcp", canon, port, listening=True)
        if listener is None:
            raise SyscallError(errno.ECONNREFUSED)
        self.ensure_bound(sock)
        if _any(sock.name[2]):                      # the route's source address
            kind, bound_port, _ = sock.name
            sock.name = (kind, bound_port, canon)
            sock.sockaddr = inet_sockaddr(sock.family, _in_family(sock.family, canon), bound_port)
        server = StreamSocket(self, listener.family, SOCK_STREAM, 0, 0)
        server.sockaddr = inet_sockaddr(listener.family, _in_family(listener.family, canon), port)
        if not listener.enqueue(server):
            raise SyscallError(errno.ECONNREFUSED)
        sock.connect_to(server, inet_sockaddr(sock.family, _in_family(sock.family, canon), port))
        server.peer_sockaddr = inet_sockaddr(listener.family, _in_family(listener.family, sock.name[2]),
                                             sock.name[1])
        sock.peer_cred, server.peer_cred = listener.peer_cred, me

    def accept(self, sock: StreamSocket, flags: int) -> StreamSocket:
        if sock.state != "listening":
            raise SyscallError(errno.EINVAL)
        if not sock.backlog:
            sock.block()
        conn = sock.backlog.popleft()
        conn.flags = flags | 2
        return conn

    # --- datagrams -------------------------------------------------------------------------------
    def connect_dgram(self, p, sock: DgramSocket, raw: bytes) -> None:
        if len(raw) >= 2 and struct.unpack_from("<H", raw)[0] == 0:     # AF_UNSPEC: dissolve
            sock.peer_name, sock.peer_sockaddr = None, b""
            return
        dest = self.dgram_destination(p, sock, raw)
        if dest[0] == "sock":
            sock.peer_sockaddr = dest[1].sockaddr
        else:
            self.ensure_bound(sock)
            sock.peer_sockaddr = inet_sockaddr(sock.family, _in_family(sock.family, dest[1]), dest[2])
        sock.peer_name = dest

    def dgram_destination(self, p, sock: DgramSocket, raw: bytes):
        """("sock", target) for AF_UNIX, ("inet", canon, port) for UDP."""
        if sock.family == AF_UNIX:
            target, _ = self.lookup_unix(p, raw)
            if not isinstance(target, DgramSocket) or target.type != sock.type:
                raise SyscallError(errno.EPROTOTYPE)
            return ("sock", target)
        canon, port = self.destination(sock, raw)
        return ("inet", canon, port)

    def send_datagram(self, sock: DgramSocket, dest, data: bytes, flags: int, files=None) -> int:
        """Send one message to a destination from dgram_destination."""
        if sock.shut_wr:
            raise SyscallError(errno.EPIPE)
        if dest[0] == "sock":
            target = dest[1]
            if target.closed:
                raise SyscallError(errno.ECONNREFUSED)
            if target.peer_name is not None and target is not sock and \
                    not (target.peer_name[0] == "sock" and target.peer_name[1] is sock):
                raise SyscallError(errno.EPERM)
            if not target.deliver(data, sock.sockaddr, files):
                sock.block(flags)
            return len(data)
        if len(data) > MAX_UDP:
            raise SyscallError(errno.EMSGSIZE)
        _, canon, port = dest
        self.ensure_bound(sock)
        target = self.receiver("udp", canon, port, listening=False)
        if target is not None:
            source_ip = canon if _any(sock.name[2]) else sock.name[2]
            source = inet_sockaddr(target.family, _in_family(target.family, source_ip), sock.name[1])
            target.deliver(data, source, None)      # a full UDP queue drops, as Linux does
        return len(data)
