/* sockets for programs that include <sys/socket.h>, <netinet/in.h> or <arpa/inet.h>
 * (the library's functions are __ncc_*: see libc.c) */
#ifndef __NCC_NET_H
#define __NCC_NET_H
#include "_libc.h"

typedef unsigned int socklen_t;
typedef unsigned short sa_family_t;
typedef unsigned short in_port_t;
typedef unsigned int in_addr_t;
struct sockaddr { sa_family_t sa_family; char sa_data[14]; };
struct in_addr { in_addr_t s_addr; };
struct sockaddr_in { sa_family_t sin_family; in_port_t sin_port; struct in_addr sin_addr; unsigned char sin_zero[8]; };

#define AF_UNIX 1
#define AF_INET 2
#define AF_INET6 10
#define SOCK_STREAM 1
#define SOCK_DGRAM 2
#define SOL_SOCKET 1
#define SO_REUSEADDR 2
#define INADDR_ANY 0
#define INADDR_LOOPBACK 0x7f000001
#define MSG_NOSIGNAL 0x4000
#define SHUT_RD 0
#define SHUT_WR 1
#define SHUT_RDWR 2

int __ncc_socket(int domain, int type, int protocol);
int __ncc_bind(int fd, void *addr, unsigned len);
int __ncc_listen(int fd, int backlog);
int __ncc_accept(int fd, void *addr, unsigned *len);
int __ncc_connect(int fd, void *addr, unsigned len);
int __ncc_setsockopt(int fd, int level, int name, void *value, unsigned len);
int __ncc_shutdown(int fd, int how);
ssize_t __ncc_send(int fd, void *buf, size_t n, int flags);
ssize_t __ncc_recv(int fd, void *buf, size_t n, int flags);
unsigned short __ncc_htons(unsigned short x);
unsigned int __ncc_htonl(unsigned int x);

#define socket __ncc_socket
#define bind __ncc_bind
#define listen __ncc_listen
#define accept __ncc_accept
#define connect __ncc_connect
#define setsockopt __ncc_setsockopt
#define shutdown __ncc_shutdown
#define send __ncc_send
#define recv __ncc_recv
#define htons __ncc_htons
#define ntohs __ncc_htons
#define htonl __ncc_htonl
#define ntohl __ncc_htonl
#endif
