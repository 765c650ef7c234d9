"""Socket system calls: the argument checking and guest-memory side of `net` and `sockets`."""

from __future__ import annotations

import errno
import struct

from .. import abi
from ..errors import SyscallError, WouldBlock
from ..net import IPPROTO_IPV6, SOL_SOCKET, inet_sockaddr, unix_sockaddr
from ..sockets import (AF_INET, AF_INET6, AF_UNIX, BUFFER, MSG_TRUNC, SOCK_DGRAM, SOCK_STREAM,
                       DgramSocket, Socket, StreamSocket)
from . import read as rd, sint, syscall, write as wr
from .io import _gather, _iovecs, _scatter
from . import PROT_READ, PROT_WRITE, check

SOCK_NONBLOCK, SOCK_CLOEXEC = abi.O_NONBLOCK, abi.O_CLOEXEC
SOCK_RAW, SOCK_SEQPACKET = 3, 5
MSG_CTRUNC, MSG_NOSIGNAL, MSG_CMSG_CLOEXEC = 0x8, 0x4000, 0x40000000
SCM_RIGHTS, SCM_MAX_FD = 1, 253
IPPROTO_TCP, IPPROTO_UDP = 6, 17
MAX_SOCKADDR = 128
IPV6_V6ONLY_OPT = 26
CMSG_HEAD = 16

# getsockopt answers that do not depend on what was set
SO_TYPE, SO_ERROR, SO_SNDBUF, SO_RCVBUF, SO_PEERCRED = 3, 4, 7, 8, 17
SO_ACCEPTCONN, SO_PROTOCOL, SO_DOMAIN = 30, 38, 39


def _socket(p, fd) -> Socket:
    file = p.fds.get(sint(fd))
    if not isinstance(file, Socket):
        raise SyscallError(errno.ENOTSOCK)
    return file


def _sockaddr_in(p, addr, addrlen) -> bytes:
    addrlen = sint(addrlen)
    if addrlen < 0 or addrlen > MAX_SOCKADDR:
        raise SyscallError(errno.EINVAL)
    return rd(p, addr, addrlen)


def _sockaddr_out(p, addr, lenp, value: bytes) -> None:
    """Write a sockaddr into a buffer of *lenp bytes (cut to fit) and its full length into *lenp."""
    if not addr:
        return
    room = sint(int.from_bytes(rd(p, lenp, 4), "little"))
    if room < 0:
        raise SyscallError(errno.EINVAL)
    wr(p, addr, value[:room])
    wr(p, lenp, struct.pack("<i", len(value)))


def _type_flags(type_: int) -> tuple[int, int, bool]:
    type_ &= 0xFFFFFFFF
    flags = type_ & (SOCK_NONBLOCK | SOCK_CLOEXEC)
    if type_ & ~(0xF | SOCK_NONBLOCK | SOCK_CLOEXEC):
        raise SyscallError(errno.EINVAL)
    return type_ & 0xF, flags & SOCK_NONBLOCK, bool(flags & SOCK_CLOEXEC)


@syscall(198)
def sys_socket(k, p, domain, type_, protocol, *_):
    domain, protocol = sint(domain), sint(protocol)
    kind, nonblock, cloexec = _type_flags(type_)
    if domain not in (AF_UNIX, AF_INET, AF_INET6):
        raise SyscallError(errno.EAFNOSUPPORT)
    if kind == SOCK_RAW and domain != AF_UNIX:
        raise SyscallError(errno.EPERM)               # raw sockets need CAP_NET_RAW
    if kind not in (SOCK_STREAM, SOCK_DGRAM):
        raise SyscallError(errno.ESOCKTNOSUPPORT)
    allowed = {AF_UNIX: (0, 1)}.get(domain, (0, IPPROTO_TCP if kind == SOCK_STREAM else IPPROTO_UDP))
    if protocol not in allowed:
        raise SyscallError(errno.EPROTONOSUPPORT)
    if protocol == 0 and domain != AF_UNIX:
        protocol = IPPROTO_TCP if kind == SOCK_STREAM else IPPROTO_UDP
    sock = k.net.new_socket(domain, kind, protocol, nonblock)
    return p.fds.install(sock, cloexec=cloexec)


@syscall(199)
def sys_socketpair(k, p, domain, type_, protocol, sv, *_):
    domain, protocol = sint(domain), sint(protocol)
    kind, nonblock, cloexec = _type_flags(type_)
    if domain != AF_UNIX:
        raise SyscallError(errno.EAFNOSUPPORT if domain not in (AF_INET, AF_INET6) else errno.EOPNOTSUPP)
    if kind not in (SOCK_STREAM, SOCK_DGRAM):
        raise SyscallError(errno.ESOCKTNOSUPPORT)
    if protocol not in (0, 1):
        raise SyscallError(errno.EPROTONOSUPPORT)
    a = k.net.new_socket(AF_UNIX, kind, 0, nonblock)
    b = k.net.new_socket(AF_UNIX, kind, 0, nonblock)
    unnamed = unix_sockaddr("unnamed", b"")
    if kind == SOCK_STREAM:
        a.connect_to(b, unnamed)
        b.peer_sockaddr = unnamed
        a.peer_cred = b.peer_cred = (p.tgid, k.uid, k.gid)
    else:
        a.peer_name, b.peer_name = ("sock", b), ("sock", a)
        a.peer_sockaddr = b.peer_sockaddr = unnamed
    fa = p.fds.install(a, cloexec=cloexec)
    fb = p.fds.install(b, cloexec=cloexec)
    try:
        wr(p, sv, struct.pack("<ii", fa, fb))
    except SyscallError:
        p.fds.close(fa)
        p.fds.close(fb)
        raise
    return 0


@syscall(200)
def sys_bind(k, p, fd, addr, addrlen, *_):
    sock = _socket(p, fd)
    k.net.bind(p, sock, _sockaddr_in(p, addr, addrlen))
    return 0


@syscall(201)
def sys_listen(k, p, fd, backlog, *_):
    sock = _socket(p, fd)
    if not isinstance(sock, StreamSocket):
        raise SyscallError(errno.EOPNOTSUPP)
    k.net.listen(p, sock, sint(backlog))
    return 0


@syscall(202)
def sys_accept(k, p, fd, addr, lenp, *_):
    return sys_accept4(k, p, fd, addr, lenp, 0)


@syscall(242)
def sys_accept4(k, p, fd, addr, lenp, flags, *_):
    flags &= 0xFFFFFFFF
    if flags & ~(SOCK_NONBLOCK | SOCK_CLOEXEC):
        raise SyscallError(errno.EINVAL)
    sock = _socket(p, fd)
    if not isinstance(sock, StreamSocket):
        raise SyscallError(errno.EOPNOTSUPP)
    if addr:
        rd(p, lenp, 4)                           # a bad length pointer fails before anything is taken
    conn = k.net.accept(sock, flags & SOCK_NONBLOCK)
    new = p.fds.install(conn, cloexec=bool(flags & SOCK_CLOEXEC))
    _sockaddr_out(p, addr, lenp, conn.peer_sockaddr)
    return new


@syscall(203)
def sys_connect(k, p, fd, addr, addrlen, *_):
    sock = _socket(p, fd)
    raw = _sockaddr_in(p, addr, addrlen)
    if isinstance(sock, DgramSocket):
        k.net.connect_dgram(p, sock, raw)
        return 0
    if p.blocked_call is not None and sock.state == "connected":
        return 0                                  # a retried connect that went through meanwhile
    if sock.in_progress:                          # the connect after EINPROGRESS reports success once
        sock.in_progress = False
        return 0
    k.net.connect_stream(p, sock, raw)
    if sock.family != AF_UNIX and sock.nonblocking():
        sock.in_progress = True
        raise SyscallError(errno.EINPROGRESS)     # as Linux's TCP, even on the loopback
    return 0


@syscall(204)
def sys_getsockname(k, p, fd, addr, lenp, *_):
    sock = _socket(p, fd)
    name = sock.sockaddr
    if not name:
        name = unix_sockaddr("unnamed", b"") if sock.family == AF_UNIX else \
            _unbound_inet(sock.family)
    _sockaddr_out(p, addr, lenp, name)
    return 0


def _unbound_inet(family: int) -> bytes:
    return inet_sockaddr(family, bytes(4 if family == AF_INET else 16), 0)


@syscall(205)
def sys_getpeername(k, p, fd, addr, lenp, *_):
    sock = _socket(p, fd)
    connected = sock.state == "connected" if isinstance(sock, StreamSocket) else sock.peer_name is not None
    if not connected:
        raise SyscallError(errno.ENOTCONN)
    _sockaddr_out(p, addr, lenp, sock.peer_sockaddr)
    return 0


def _send(k, p, sock: Socket, data: bytes, flags: int, dest_raw: bytes | None, files=None) -> int:
    try:
        if isinstance(sock, DgramSocket):
            if dest_raw:
                dest = k.net.dgram_destination(p, sock, dest_raw)
                return k.net.send_datagram(sock, dest, data, flags, files)
            return sock.send(data, flags, files)
        if dest_raw and sock.family == AF_UNIX:
            raise SyscallError(errno.EISCONN if sock.state == "connected" else errno.EOPNOTSUPP)
        return sock.send(data, flags, files)
    except SyscallError as error:
        for file in files or ():
            file.drop()
        if error.errno == errno.EPIPE and not flags & MSG_NOSIGNAL:
            k.send_signal(p, abi.SIGPIPE)
        raise
    except BaseException:
        for file in files or ():
            file.drop()
        raise


@syscall(206)
def sys_sendto(k, p, fd, buf, length, flags, addr, addrlen, *_):
    sock = _socket(p, fd)
    data = rd(p, buf, min(length, 1 << 20))
    dest = _sockaddr_in(p, addr, addrlen) if addr else None
    return _send(k, p, sock, data, flags & 0xFFFFFFFF, dest)


@syscall(207)
def sys_recvfrom(k, p, fd, buf, length, flags, addr, lenp, *_):
    sock = _socket(p, fd)
    flags &= 0xFFFFFFFF
    length = min(length, 1 << 20)
    check(p, buf, length, PROT_WRITE)
    if isinstance(sock, DgramSocket):
        data, source, _files, full = sock.recv_from(length, flags)
        wr(p, buf, data)
        if source:
            _sockaddr_out(p, addr, lenp, source)
        elif addr:
            wr(p, lenp, struct.pack("<i", 0))
        return full if flags & MSG_TRUNC else len(data)
    data, _ = sock.recv(length, flags)
    wr(p, buf, data)
    if addr and sock.family != AF_UNIX:
        _sockaddr_out(p, addr, lenp, sock.peer_sockaddr)
    elif addr:
        wr(p, lenp, struct.pack("<i", 0))
    return len(data)


# --- sendmsg / recvmsg: struct msghdr is 56 bytes on arm64 ------------------------------
MSGHDR = struct.Struct("<QI4xQQQQi4x")    # name, namelen, iov, iovlen, control, controllen, flags


def _rights(p, control: bytes) -> list:
    """The open files an SCM_RIGHTS control message names, acquired (EBADF for a closed fd)."""
    files, pos = [], 0
    while pos + CMSG_HEAD <= len(control):
        length, level, kind = struct.unpack_from("<Qii", control, pos)
        if length < CMSG_HEAD or pos + length > len(control):
            raise SyscallError(errno.EINVAL)
        if level == SOL_SOCKET and kind == SCM_RIGHTS:
            count = (length - CMSG_HEAD) // 4
            fds = struct.unpack_from(f"<{count}i", control, pos + CMSG_HEAD)
            if len(files) + count > SCM_MAX_FD:
                raise SyscallError(errno.EINVAL)
            found = [p.fds.get(fd) for fd in fds]
            files.extend(f.acquire() for f in found)
        elif level == SOL_SOCKET and kind == 2:      # SCM_CREDENTIALS: accepted, not passed on
            pass
        else:
            for file in files:
                file.drop()
            raise SyscallError(errno.EINVAL)
        pos += (length + 7) & ~7
    return files


@syscall(211)
def sys_sendmsg(k, p, fd, msg, flags, *_):
    sock = _socket(p, fd)
    name, namelen, iov, iovlen, control, controllen, _ = MSGHDR.unpack(rd(p, msg, MSGHDR.size))
    dest = _sockaddr_in(p, name, namelen) if name and namelen else None
    data = _gather(p, _iovecs(p, iov, iovlen, PROT_READ))
    files = _rights(p, rd(p, control, controllen)) if control and controllen else []
    if files and sock.family != AF_UNIX:
        for file in files:
            file.drop()
        raise SyscallError(errno.EINVAL)
    return _send(k, p, sock, data, flags & 0xFFFFFFFF, dest, files or None)


@syscall(212)
def sys_recvmsg(k, p, fd, msg, flags, *_):
    sock = _socket(p, fd)
    flags &= 0xFFFFFFFF
    name, namelen, iov, iovlen, control, controllen, _ = MSGHDR.unpack(rd(p, msg, MSGHDR.size))
    vecs = _iovecs(p, iov, iovlen, PROT_WRITE)
    total = sum(n for _, n in vecs)
    out_flags = 0
    if isinstance(sock, DgramSocket):
        data, source, files, full = sock.recv_from(total, flags, want_files=True)
        if full > len(data):
            out_flags |= MSG_TRUNC
    else:
        data, files = sock.recv(total, flags, want_files=True)
        source = sock.peer_sockaddr if sock.family != AF_UNIX else b""
    _scatter(p, vecs, data)
    if name:
        room = sint(namelen)
        wr(p, name, source[:max(room, 0)])
        wr(p, msg + 8, struct.pack("<i", len(source)))
    used = 0
    if files:
        used, truncated = _deliver_rights(p, files, control, controllen, flags)
        if truncated:
            out_flags |= MSG_CTRUNC
    wr(p, msg + 40, struct.pack("<Q", used))
    wr(p, msg + 48, struct.pack("<i", out_flags))
    return full if isinstance(sock, DgramSocket) and flags & MSG_TRUNC else len(data)


def _deliver_rights(p, files: list, control: int, controllen: int, flags: int) -> tuple[int, bool]:
    """Install received files as new descriptors in an SCM_RIGHTS message; (bytes used, truncated)."""
    room = (controllen - CMSG_HEAD) // 4 if control and controllen >= CMSG_HEAD else 0
    take, rest = files[:max(room, 0)], files[max(room, 0):]
    fds = []
    for file in take:
        try:
            fds.append(p.fds.install(file, cloexec=bool(flags & MSG_CMSG_CLOEXEC)))
        except SyscallError:
            rest.append(file)
            continue
        file.drop()                                   # the in-flight reference becomes the descriptor's
    for file in rest:
        file.drop()
    if not fds:
        return 0, True
    length = CMSG_HEAD + 4 * len(fds)
    wr(p, control, struct.pack("<Qii", length, SOL_SOCKET, SCM_RIGHTS) + struct.pack(f"<{len(fds)}i", *fds))
    return min((length + 7) & ~7, controllen), bool(rest)


@syscall(210)
def sys_shutdown(k, p, fd, how, *_):
    sock = _socket(p, fd)
    how = sint(how)
    if how not in (0, 1, 2):
        raise SyscallError(errno.EINVAL)
    sock.shutdown(how)
    return 0


@syscall(208)
def sys_setsockopt(k, p, fd, level, name, value, length, *_):
    sock = _socket(p, fd)
    level, name, length = sint(level), sint(name), sint(length)
    if length < 0:
        raise SyscallError(errno.EINVAL)
    raw = rd(p, value, min(length, 256))
    if level not in (SOL_SOCKET, IPPROTO_TCP, IPPROTO_UDP, 0, IPPROTO_IPV6):
        raise SyscallError(errno.ENOPROTOOPT)
    if level == IPPROTO_IPV6 and sock.family != AF_INET6:
        raise SyscallError(errno.ENOPROTOOPT)
    if level == IPPROTO_TCP and (sock.type != SOCK_STREAM or sock.family == AF_UNIX):
        raise SyscallError(errno.EOPNOTSUPP if sock.family == AF_UNIX else errno.ENOPROTOOPT)
    if len(raw) < 4:
        raise SyscallError(errno.EINVAL)
    if level == IPPROTO_IPV6 and name == IPV6_V6ONLY_OPT and sock.name is not None:
        raise SyscallError(errno.EINVAL)
    sock.options[(level, name)] = int.from_bytes(raw[:4], "little", signed=True) if len(raw) < 8 \
        else int.from_bytes(raw[:8], "little")
    return 0


@syscall(209)
def sys_getsockopt(k, p, fd, level, name, value, lenp, *_):
    sock = _socket(p, fd)
    level, name = sint(level), sint(name)
    room = sint(int.from_bytes(rd(p, lenp, 4), "little"))
    if room < 0:
        raise SyscallError(errno.EINVAL)
    if level == SOL_SOCKET and name == SO_PEERCRED:
        if sock.family != AF_UNIX:
            raise SyscallError(errno.ENODATA)
        answer = struct.pack("<iII", *getattr(sock, "peer_cred", (0, k.uid, k.gid)))
        wr(p, value, answer[:room])
        wr(p, lenp, struct.pack("<i", min(room, len(answer))))
        return 0
    fixed = {SO_TYPE: sock.type, SO_PROTOCOL: sock.protocol, SO_DOMAIN: sock.family,
             SO_ACCEPTCONN: int(getattr(sock, "state", "") == "listening"),
             SO_SNDBUF: BUFFER, SO_RCVBUF: BUFFER}
    if level == SOL_SOCKET and name == SO_ERROR:
        result, sock.error = sock.error, 0
    elif level == SOL_SOCKET and name in fixed:
        result = fixed[name]
    elif (level, name) in sock.options:
        result = sock.options[(level, name)]
    elif level in (SOL_SOCKET, IPPROTO_TCP, IPPROTO_IPV6, 0) and not (
            level == IPPROTO_IPV6 and sock.family != AF_INET6):
        result = 0
    else:
        raise SyscallError(errno.ENOPROTOOPT)
    answer = struct.pack("<i", result if -(1 << 31) <= result < 1 << 31 else 0)
    wr(p, value, answer[:room])
    wr(p, lenp, struct.pack("<i", min(room, 4)))
    return 0



# --- sendmmsg / recvmmsg: arrays of struct mmsghdr (a msghdr, then the 4-byte length moved) ----
MMSGHDR_SIZE = MSGHDR.size + 8
MSG_WAITFORONE = 0x10000


@syscall(269)
def sys_sendmmsg(k, p, fd, vec, count, flags, *_):
    _socket(p, fd)
    sent = 0
    for i in range(min(count & 0xFFFFFFFF, 1024)):        # Linux's UIO_MAXIOV cap
        entry = vec + i * MMSGHDR_SIZE
        try:
            n = sys_sendmsg(k, p, fd, entry, flags)
        except (SyscallError, WouldBlock):
            if sent:
                break                     # what went already is the answer; the error comes next time
            raise
        wr(p, entry + MSGHDR.size, struct.pack("<I", n))
        sent += 1
    return sent


@syscall(243)
def sys_recvmmsg(k, p, fd, vec, count, flags, timeout, *_):
    _socket(p, fd)
    flags &= 0xFFFFFFFF
    got = 0
    for i in range(min(count & 0xFFFFFFFF, 1024)):
        entry = vec + i * MMSGHDR_SIZE
        try:
            n = sys_recvmsg(k, p, fd, entry, flags)
        except (SyscallError, WouldBlock):
            if got:
                break
            raise
        wr(p, entry + MSGHDR.size, struct.pack("<I", n))
        got += 1
        if flags & MSG_WAITFORONE:
            flags |= 0x40                 # MSG_DONTWAIT after the first message
    return got
