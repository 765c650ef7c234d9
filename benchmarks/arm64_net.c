/* Loopback TCP between two guest processes: the child sends MEGABYTES MiB in
 * 64 KiB writes, the parent reads it all and prints the byte count and a checksum.
 *   arm64_net MEGABYTES */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    long total = (argc > 1 ? atol(argv[1]) : 4) << 20;
    int srv = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {AF_INET, 0, {htonl(INADDR_LOOPBACK)}};
    socklen_t len = sizeof sa;
    bind(srv, (struct sockaddr *)&sa, sizeof sa);
    listen(srv, 1);
    getsockname(srv, (struct sockaddr *)&sa, &len);
    static unsigned char buf[65536];
    if (fork() == 0) {
        int c = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(c, (struct sockaddr *)&sa, sizeof sa) < 0) _exit(1);
        for (int i = 0; i < (int)sizeof buf; i++) buf[i] = (unsigned char)(i * 7);
        for (long sent = 0; sent < total;) {
            long n = write(c, buf, sizeof buf < (unsigned long)(total - sent) ? sizeof buf : total - sent);
            if (n <= 0) _exit(2);
            sent += n;
        }
        close(c);
        _exit(0);
    }
    int conn = accept(srv, NULL, NULL);
    long got = 0;
    unsigned long sum = 0;
    for (;;) {
        long n = read(conn, buf, sizeof buf);
        if (n <= 0) break;
        for (long i = 0; i < n; i++) sum = sum * 31 + buf[i];     /* every byte, in stream order */
        got += n;
    }
    int status;
    wait(&status);
    printf("received %ld bytes, checksum %lu, sender status %d\n", got, sum, WEXITSTATUS(status));
    return 0;
}
