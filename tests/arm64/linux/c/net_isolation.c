/* The machine's network is its own loopback: no host address can be bound or reached.
 * (Not compared with qemu-aarch64, which uses the host's network.) */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void try_connect(const char *ip, int port) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {AF_INET, htons(port)};
    inet_pton(AF_INET, ip, &sa.sin_addr);
    errno = 0;
    int r = connect(s, (struct sockaddr *)&sa, sizeof sa);
    printf("connect %s:%d -> %d %s\n", ip, port, r, strerror(errno));
    close(s);
}

int main(void) {
    try_connect("8.8.8.8", 53);
    try_connect("10.0.0.1", 80);
    try_connect("127.0.0.1", 80);
    try_connect("127.0.0.1", 1);
    int u = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in far = {AF_INET, htons(53)};
    inet_pton(AF_INET, "192.168.1.1", &far.sin_addr);
    errno = 0;
    printf("udp sendto 192.168.1.1 -> %zd %s\n", sendto(u, "x", 1, 0, (struct sockaddr *)&far, sizeof far),
           strerror(errno));
    errno = 0;
    printf("bind 192.168.1.1 -> %d %s\n", bind(u, (struct sockaddr *)&far, sizeof far), strerror(errno));
    struct sockaddr_in6 s6 = {AF_INET6, htons(80)};
    inet_pton(AF_INET6, "2001:db8::1", &s6.sin6_addr);
    int t6 = socket(AF_INET6, SOCK_STREAM, 0);
    errno = 0;
    printf("connect [2001:db8::1]:80 -> %d %s\n", connect(t6, (struct sockaddr *)&s6, sizeof s6), strerror(errno));
    /* deterministic ephemeral ports: the first autobound port of the machine */
    struct sockaddr_in me;
    socklen_t len = sizeof me;
    getsockname(u, (struct sockaddr *)&me, &len);
    printf("unbound udp name port %d\n", ntohs(me.sin_port));
    struct sockaddr_in lo = {AF_INET, 0, {htonl(INADDR_LOOPBACK)}};
    int b = socket(AF_INET, SOCK_DGRAM, 0);
    bind(b, (struct sockaddr *)&lo, sizeof lo);
    len = sizeof me;
    getsockname(b, (struct sockaddr *)&me, &len);
    printf("first ephemeral port %d\n", ntohs(me.sin_port));
    return 0;
}
