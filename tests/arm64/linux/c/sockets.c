/* Sockets: AF_UNIX stream/dgram (pairs, abstract and path names, SCM_RIGHTS),
 * TCP and UDP on the loopback between processes, poll/select/epoll/eventfd.
 * Everything printed is independent of host timing and of port numbers
 * (qemu-aarch64 runs this on the host's real network stack). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK(x) do { if ((x) < 0) { printf("%s: %s\n", #x, strerror(errno)); } } while (0)

static void pair_stream(void) {
    int sv[2];
    char buf[64];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
    write(sv[0], "hello", 5);
    write(sv[0], " world", 6);
    int n = read(sv[1], buf, sizeof buf);
    printf("pair stream: %d '%.*s'\n", n, n, buf);
    send(sv[1], "back", 4, 0);
    n = recv(sv[0], buf, 2, MSG_PEEK);
    printf("peek %d '%.*s'\n", n, n, buf);
    n = recv(sv[0], buf, sizeof buf, 0);
    printf("recv %d '%.*s'\n", n, n, buf);
    struct pollfd pf = {sv[0], POLLIN | POLLOUT, 0};
    printf("poll idle: %d revents=%#x\n", poll(&pf, 1, 0), pf.revents);
    shutdown(sv[1], SHUT_WR);
    pf.revents = 0;
    printf("poll after peer SHUT_WR: %d revents=%#x\n", poll(&pf, 1, 0), pf.revents);
    printf("read at eof: %zd\n", read(sv[0], buf, sizeof buf));
    close(sv[1]);
    signal(SIGPIPE, SIG_IGN);
    errno = 0;
    printf("write to closed peer: %zd %s\n", write(sv[0], "x", 1), strerror(errno));
    int type; socklen_t len = sizeof type;
    getsockopt(sv[0], SOL_SOCKET, SO_TYPE, &type, &len);
    printf("SO_TYPE %d len %d\n", type, (int)len);
    struct stat st;
    fstat(sv[0], &st);
    printf("S_ISSOCK %d\n", S_ISSOCK(st.st_mode));
    close(sv[0]);
}

static void pair_dgram(void) {
    int sv[2];
    char buf[64];
    CHECK(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv));
    send(sv[0], "one", 3, 0);
    send(sv[0], "two!", 4, 0);
    int n = recv(sv[1], buf, 2, 0);
    printf("dgram truncated: %d '%.*s'\n", n, n, buf);
    n = recv(sv[1], buf, sizeof buf, MSG_TRUNC);
    printf("dgram next: %d\n", n);
    errno = 0;
    n = recv(sv[1], buf, sizeof buf, MSG_DONTWAIT);
    printf("empty: %d %s\n", n, strerror(errno));
    close(sv[0]);
    close(sv[1]);
}

static socklen_t abstract_addr(struct sockaddr_un *a, const char *name) {
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    strcpy(a->sun_path + 1, name);
    return offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name);
}

static void unix_names(void) {
    struct sockaddr_un a, got;
    char name[64];
    snprintf(name, sizeof name, "ncpu-test-%d", getpid());
    socklen_t alen = abstract_addr(&a, name);
    int srv = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    CHECK(bind(srv, (struct sockaddr *)&a, alen));
    CHECK(listen(srv, 4));
    int again = socket(AF_UNIX, SOCK_STREAM, 0);
    errno = 0;
    printf("bind same abstract name: %d %s\n", bind(again, (struct sockaddr *)&a, alen), strerror(errno));
    close(again);
    int cli = socket(AF_UNIX, SOCK_STREAM, 0);
    CHECK(connect(cli, (struct sockaddr *)&a, alen));
    socklen_t glen = sizeof got;
    int conn = accept(srv, (struct sockaddr *)&got, &glen);
    printf("accepted: %d peer addrlen %d\n", conn >= 0, (int)glen);
    glen = sizeof got;
    getpeername(cli, (struct sockaddr *)&got, &glen);
    printf("client's peer is the server name: %d\n", glen == alen && memcmp(&got, &a, alen) == 0);
    struct ucred cred; socklen_t clen = sizeof cred;
    getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &clen);
    printf("SO_PEERCRED pid is mine: %d\n", cred.pid == getpid());

    /* pass a pipe's read end over the connection */
    int pfd[2];
    pipe(pfd);
    char byte = 'F';
    struct iovec iov = {&byte, 1};
    char control[CMSG_SPACE(sizeof(int))];
    struct msghdr msg = {0};
    msg.msg_iov = &iov; msg.msg_iovlen = 1;
    msg.msg_control = control; msg.msg_controllen = sizeof control;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET; c->cmsg_type = SCM_RIGHTS; c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &pfd[0], sizeof(int));
    printf("sendmsg: %zd\n", sendmsg(cli, &msg, 0));
    close(pfd[0]);
    write(pfd[1], "through", 7);
    close(pfd[1]);
    char rbyte = 0, rcontrol[CMSG_SPACE(sizeof(int))];
    struct iovec riov = {&rbyte, 1};
    struct msghdr rmsg = {0};
    rmsg.msg_iov = &riov; rmsg.msg_iovlen = 1;
    rmsg.msg_control = rcontrol; rmsg.msg_controllen = sizeof rcontrol;
    ssize_t got_n = recvmsg(conn, &rmsg, 0);
    struct cmsghdr *rc = CMSG_FIRSTHDR(&rmsg);
    int passed = -1;
    if (rc && rc->cmsg_type == SCM_RIGHTS) memcpy(&passed, CMSG_DATA(rc), sizeof(int));
    printf("recvmsg: %zd byte '%c' controllen %d fd passed %d\n", got_n, rbyte, (int)rmsg.msg_controllen,
           passed >= 0);
    char buf[32];
    int n = read(passed, buf, sizeof buf);
    printf("read through passed fd: '%.*s'\n", n, buf);
    close(passed);
    close(conn); close(cli); close(srv);

    /* a path name in the tree */
    struct sockaddr_un pa = {AF_UNIX, "sock-file"};
    int ps = socket(AF_UNIX, SOCK_DGRAM, 0);
    CHECK(bind(ps, (struct sockaddr *)&pa, sizeof pa));
    struct stat st;
    printf("path socket file: %d\n", stat("sock-file", &st) == 0 && S_ISSOCK(st.st_mode));
    int pc = socket(AF_UNIX, SOCK_DGRAM, 0);
    printf("sendto path: %zd\n", sendto(pc, "ping", 4, 0, (struct sockaddr *)&pa, sizeof pa));
    struct sockaddr_un from; socklen_t flen = sizeof from;
    n = recvfrom(ps, buf, sizeof buf, 0, (struct sockaddr *)&from, &flen);
    printf("recvfrom path: %d '%.*s' from unnamed (len %d)\n", n, n, buf, (int)flen);
    errno = 0;
    printf("bind existing path: %d %s\n", bind(pc, (struct sockaddr *)&pa, sizeof pa), strerror(errno));
    close(ps);
    errno = 0;
    printf("sendto closed path: %zd %s\n", sendto(pc, "x", 1, 0, (struct sockaddr *)&pa, sizeof pa), strerror(errno));
    unlink("sock-file");
    errno = 0;
    printf("sendto removed path: %zd %s\n", sendto(pc, "x", 1, 0, (struct sockaddr *)&pa, sizeof pa), strerror(errno));
    close(pc);
}

static void tcp_between_processes(int family) {
    int srv = socket(family, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(srv, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_storage ss = {0};
    socklen_t slen;
    if (family == AF_INET) {
        struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
        s4->sin_family = AF_INET;
        s4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        slen = sizeof *s4;
    } else {
        struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
        s6->sin6_family = AF_INET6;
        s6->sin6_addr = in6addr_loopback;
        slen = sizeof *s6;
    }
    CHECK(bind(srv, (struct sockaddr *)&ss, slen));
    CHECK(listen(srv, 8));
    getsockname(srv, (struct sockaddr *)&ss, &slen);
    pid_t pid = fork();
    if (pid == 0) {
        int c = socket(family, SOCK_STREAM, 0);
        if (connect(c, (struct sockaddr *)&ss, slen) < 0) _exit(1);
        int nd = 1;
        setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &nd, sizeof nd);
        char buf[256];
        for (int i = 0; i < 3; i++) {
            int n = snprintf(buf, sizeof buf, "line %d from child\n", i);
            write(c, buf, n);
        }
        shutdown(c, SHUT_WR);
        int n, total = 0;
        while ((n = read(c, buf, sizeof buf)) > 0) total += n;
        close(c);
        _exit(total == 100000 ? 0 : 2);
    }
    int conn = accept(srv, NULL, NULL);
    char buf[4096];
    int n, total = 0;
    char all[256];
    while ((n = read(conn, buf, sizeof buf)) > 0) {
        memcpy(all + total, buf, n);
        total += n;
    }
    printf("tcp%s server got %d bytes:\n%.*s", family == AF_INET ? "4" : "6", total, total, all);
    char *big = calloc(100000, 1);
    int sent = 0;
    while (sent < 100000) {
        n = write(conn, big + sent, 100000 - sent);
        if (n <= 0) break;
        sent += n;
    }
    free(big);
    close(conn);
    int status;
    waitpid(pid, &status, 0);
    printf("client status %d\n", WEXITSTATUS(status));
    close(srv);
}

static void udp(void) {
    int a = socket(AF_INET, SOCK_DGRAM, 0), b = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in sa = {AF_INET, 0, {htonl(INADDR_LOOPBACK)}};
    socklen_t len = sizeof sa;
    CHECK(bind(a, (struct sockaddr *)&sa, sizeof sa));
    getsockname(a, (struct sockaddr *)&sa, &len);
    printf("udp sendto: %zd\n", sendto(b, "datagram", 8, 0, (struct sockaddr *)&sa, sizeof sa));
    struct sockaddr_in from, bname; socklen_t flen = sizeof from, blen = sizeof bname;
    char buf[32];
    int n = recvfrom(a, buf, sizeof buf, 0, (struct sockaddr *)&from, &flen);
    getsockname(b, (struct sockaddr *)&bname, &blen);
    printf("udp recvfrom: %d '%.*s' from loopback %d, sender's port %d\n", n, n, buf,
           from.sin_addr.s_addr == htonl(INADDR_LOOPBACK), from.sin_port == bname.sin_port);
    close(a); close(b);
}

static void refused(void) {
    /* a port nobody listens on: bind one, close it, connect to it */
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {AF_INET, 0, {htonl(INADDR_LOOPBACK)}};
    socklen_t len = sizeof sa;
    bind(s, (struct sockaddr *)&sa, sizeof sa);
    getsockname(s, (struct sockaddr *)&sa, &len);
    close(s);
    int c = socket(AF_INET, SOCK_STREAM, 0);
    errno = 0;
    printf("connect to closed port: %d %s\n", connect(c, (struct sockaddr *)&sa, sizeof sa), strerror(errno));
    close(c);
    errno = 0;
    printf("socket(AF_INET, SOCK_SEQPACKET): %d %s\n", socket(AF_INET, SOCK_SEQPACKET, 0), strerror(errno));
    errno = 0;
    printf("socket(AF_INET, SOCK_STREAM, UDP): %d %s\n", socket(AF_INET, SOCK_STREAM, IPPROTO_UDP), strerror(errno));
    errno = 0;
    printf("listen on a file: %d %s\n", listen(0, 1), strerror(errno));
}

static void waiting(void) {
    int sv[2], efd = eventfd(0, EFD_NONBLOCK), ep = epoll_create1(EPOLL_CLOEXEC);
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    struct epoll_event ev = {EPOLLIN, {.u64 = 7}}, out[4];
    epoll_ctl(ep, EPOLL_CTL_ADD, sv[1], &ev);
    ev.data.u64 = 9;
    epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);
    printf("epoll idle (10 ms): %d\n", epoll_wait(ep, out, 4, 10));
    write(sv[0], "z", 1);
    uint64_t one = 3;
    write(efd, &one, 8);
    int n = epoll_wait(ep, out, 4, -1);
    printf("epoll ready: %d", n);
    for (int i = 0; i < n; i++) printf(" [%llu %#x]", (unsigned long long)out[i].data.u64, out[i].events);
    printf("\n");
    uint64_t v = 0;
    read(efd, &v, 8);
    printf("eventfd read %llu, again: %zd\n", (unsigned long long)v, read(efd, &v, 8));
    fd_set rs;
    FD_ZERO(&rs);
    FD_SET(sv[1], &rs);
    struct timeval tv = {0, 0};
    printf("select: %d isset %d\n", select(sv[1] + 1, &rs, NULL, NULL, &tv), FD_ISSET(sv[1], &rs));
    char c;
    read(sv[1], &c, 1);
    FD_ZERO(&rs);
    FD_SET(sv[1], &rs);
    tv.tv_usec = 20000;
    printf("select timeout: %d\n", select(sv[1] + 1, &rs, NULL, NULL, &tv));
    struct pollfd pf = {sv[1], POLLIN, 0};
    printf("poll timeout: %d\n", poll(&pf, 1, 5));
    errno = 0;
    printf("epoll_ctl twice: %d %s\n", epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev), strerror(errno));
    int p2[2];
    socketpair(AF_UNIX, SOCK_STREAM, 0, p2);
    ev.events = EPOLLIN | EPOLLET;
    ev.data.u64 = 11;
    epoll_ctl(ep, EPOLL_CTL_ADD, p2[0], &ev);
    write(p2[1], "ab", 2);
    printf("edge-triggered: %d", epoll_wait(ep, out, 4, 0));
    printf(" then %d", epoll_wait(ep, out, 4, 0));
    write(p2[1], "c", 1);
    printf(" then after more data %d\n", epoll_wait(ep, out, 4, 0));
    close(p2[0]);
    printf("peer of a closed epoll-registered socket reads %zd\n", read(p2[1], &c, 1));
    printf("epoll after that close: %d\n", epoll_wait(ep, out, 4, 0));
    close(p2[1]);
    close(sv[0]); close(sv[1]); close(efd); close(ep);
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    pair_stream();
    pair_dgram();
    unix_names();
    tcp_between_processes(AF_INET);
    tcp_between_processes(AF_INET6);
    udp();
    refused();
    waiting();
    return 0;
}
