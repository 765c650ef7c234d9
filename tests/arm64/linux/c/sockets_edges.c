/* Socket calls at their edges: error numbers and flags, compared with qemu-aarch64. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define SHOW(expr) do { errno = 0; long r_ = (long)(expr); \
    printf("%-58s -> %ld %s\n", #expr, r_, r_ < 0 ? strerror(errno) : ""); } while (0)

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    signal(SIGPIPE, SIG_IGN);
    int t = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in lo = {AF_INET, 0, {htonl(INADDR_LOOPBACK)}};
    socklen_t len = sizeof lo;
    char buf[64];
    SHOW(shutdown(t, SHUT_WR));
    SHOW(recv(t, buf, sizeof buf, 0));
    SHOW(send(t, "x", 1, 0));
    SHOW(getpeername(t, (struct sockaddr *)&lo, &len));
    SHOW(bind(t, (struct sockaddr *)&lo, 8));
    SHOW(bind(t, (struct sockaddr *)&lo, sizeof lo));
    SHOW(bind(t, (struct sockaddr *)&lo, sizeof lo));
    SHOW(listen(t, 2));
    SHOW(recv(t, buf, sizeof buf, 0));
    int flags = fcntl(t, F_GETFL);
    fcntl(t, F_SETFL, flags | O_NONBLOCK);
    SHOW(accept(t, NULL, NULL));
    fcntl(t, F_SETFL, flags);
    struct pollfd pf = {t, POLLIN | POLLOUT, 0};
    SHOW(poll(&pf, 1, 0));
    printf("listening revents %#x\n", pf.revents);
    len = sizeof lo;
    getsockname(t, (struct sockaddr *)&lo, &len);
    int c = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    SHOW(connect(c, (struct sockaddr *)&lo, sizeof lo));
    pf.fd = c; pf.events = POLLOUT; pf.revents = 0;
    SHOW(poll(&pf, 1, 1000));
    printf("connected revents %#x\n", pf.revents);
    int err = -1; socklen_t elen = sizeof err;
    getsockopt(c, SOL_SOCKET, SO_ERROR, &err, &elen);
    printf("SO_ERROR %d\n", err);
    SHOW(connect(c, (struct sockaddr *)&lo, sizeof lo));
    pf.fd = t; pf.events = POLLIN; pf.revents = 0;
    SHOW(poll(&pf, 1, 1000));
    int s = accept4(t, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    printf("accept4 flags: nonblock %d cloexec %d\n", !!(fcntl(s, F_GETFL) & O_NONBLOCK), fcntl(s, F_GETFD));
    SHOW(recv(s, buf, sizeof buf, 0));
    SHOW(send(c, "hello", 5, 0));
    pf.fd = s; pf.events = POLLIN; pf.revents = 0;
    poll(&pf, 1, 1000);
    int avail = -1;
    ioctl(s, FIONREAD, &avail);
    printf("FIONREAD %d\n", avail);
    SHOW(recv(s, buf, 2, MSG_PEEK));
    SHOW(recv(s, buf, sizeof buf, 0));
    int acc = -1; socklen_t alen = sizeof acc;
    getsockopt(t, SOL_SOCKET, SO_ACCEPTCONN, &acc, &alen);
    printf("SO_ACCEPTCONN listening %d\n", acc);
    getsockopt(s, SOL_SOCKET, SO_ACCEPTCONN, &acc, &alen);
    printf("SO_ACCEPTCONN connected %d\n", acc);
    struct sockaddr_in peer; socklen_t plen = sizeof peer;
    getpeername(c, (struct sockaddr *)&peer, &plen);
    printf("client's peer is the server's port: %d\n", peer.sin_port == lo.sin_port);
    plen = 4;
    SHOW(getsockname(c, (struct sockaddr *)&peer, &plen));
    printf("short getsockname buffer: len now %d\n", plen);
    shutdown(c, SHUT_WR);
    fcntl(s, F_SETFL, 0);
    SHOW(recv(s, buf, sizeof buf, 0));
    SHOW(send(c, "x", 1, 0));
    close(s);
    close(c);
    close(t);

    int u[2];
    SHOW(socketpair(AF_INET, SOCK_STREAM, 0, u));
    SHOW(socketpair(AF_UNIX, SOCK_STREAM, 0, u));
    SHOW(send(u[0], "abcdef", 6, 0));
    SHOW(recv(u[1], buf, 6, MSG_WAITALL));
    SHOW(listen(u[0], 1));
    struct sockaddr_un un; socklen_t ulen = sizeof un;
    SHOW(getsockname(u[0], (struct sockaddr *)&un, &ulen));
    printf("unnamed len %d\n", ulen);
    SHOW(sendto(u[0], "x", 1, 0, (struct sockaddr *)&un, sizeof un));
    close(u[0]);
    SHOW(recv(u[1], buf, sizeof buf, 0));
    close(u[1]);

    int d = socket(AF_UNIX, SOCK_DGRAM, 0);
    SHOW(listen(d, 1));
    SHOW(send(d, "x", 1, 0));
    struct sockaddr_un nowhere = {AF_UNIX, "no-such-socket"};
    SHOW(connect(d, (struct sockaddr *)&nowhere, sizeof nowhere));
    struct sockaddr_un auto_ = {AF_UNIX};
    SHOW(bind(d, (struct sockaddr *)&auto_, sizeof(sa_family_t)));
    ulen = sizeof un;
    getsockname(d, (struct sockaddr *)&un, &ulen);
    printf("autobind: len %d, abstract %d\n", ulen, un.sun_path[0] == 0);
    close(d);
    SHOW(socket(AF_UNIX, SOCK_STREAM, 5));
    SHOW(socket(12345, SOCK_STREAM, 0));
    /* (not socket(AF_INET, SOCK_DGRAM | 0x100, 0): Linux says EINVAL, qemu-user drops the bit) */
    int one = 1;
    int x = socket(AF_INET, SOCK_STREAM, 0);
    SHOW(setsockopt(x, SOL_SOCKET, SO_REUSEADDR, &one, 2));
    SHOW(setsockopt(x, 9999, 1, &one, sizeof one));
    SHOW(getsockopt(x, SOL_SOCKET, SO_REUSEADDR, &one, &len));
    SHOW(setsockopt(x, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one));
    len = sizeof one; one = 7;
    getsockopt(x, SOL_SOCKET, SO_REUSEADDR, &one, &len);
    printf("SO_REUSEADDR %d\n", one);
    close(x);

    /* sendmmsg / recvmmsg over a datagram pair */
    int dg[2];
    socketpair(AF_UNIX, SOCK_DGRAM, 0, dg);
    struct mmsghdr out[3], in[4];
    struct iovec oiov[3], iiov[4];
    char ibuf[4][16];
    const char *words[3] = {"one", "three", "seven!!"};
    memset(out, 0, sizeof out);
    memset(in, 0, sizeof in);
    for (int i = 0; i < 3; i++) {
        oiov[i].iov_base = (void *)words[i];
        oiov[i].iov_len = strlen(words[i]);
        out[i].msg_hdr.msg_iov = &oiov[i];
        out[i].msg_hdr.msg_iovlen = 1;
    }
    for (int i = 0; i < 4; i++) {
        iiov[i].iov_base = ibuf[i];
        iiov[i].iov_len = 4;
        in[i].msg_hdr.msg_iov = &iiov[i];
        in[i].msg_hdr.msg_iovlen = 1;
    }
    SHOW(sendmmsg(dg[0], out, 3, 0));
    printf("sent lengths %u %u %u\n", out[0].msg_len, out[1].msg_len, out[2].msg_len);
    SHOW(recvmmsg(dg[1], in, 4, MSG_DONTWAIT, NULL));
    for (int i = 0; i < 3; i++)
        printf("got %u '%.*s' flags %#x\n", in[i].msg_len, (int)in[i].msg_len, ibuf[i], in[i].msg_hdr.msg_flags);
    close(dg[0]);
    close(dg[1]);
    return 0;
}
