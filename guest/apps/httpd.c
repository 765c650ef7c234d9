/* A small HTTP/1.1 server: serves the files under a directory of the root.
 *
 *   httpd [-p PORT] [-r DIR] [-n CONNECTIONS]
 *
 * GET and HEAD; 404 for a missing file, 403 for a path with "..", 400 for a
 * malformed request, 501 for another method; keep-alive (HTTP/1.1 keeps the
 * connection unless "Connection: close", HTTP/1.0 closes it unless
 * "Connection: keep-alive"); a directory gives its index.html, or a listing of
 * its entries in name order.  Connections are served one after the other, in
 * one process; with -n the server ends after that many connections (tests).
 * Written in the C subset `ncc` compiles, so it is built by gcc and by ncc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <netinet/in.h>

#define REQ_MAX 8192
#define PATH_MAX_LEN 1024

static char root[PATH_MAX_LEN] = "/www";
static char req[REQ_MAX];
static int req_len;
static int served;

/* ---------------------------------------------------------------- output */

static int send_all(int fd, char *buf, long n) {
    long done = 0, r;
    while (done < n) {
        r = send(fd, buf + done, n - done, MSG_NOSIGNAL);
        if (r <= 0) return -1;
        done += r;
    }
    return 0;
}

static int send_str(int fd, char *s) { return send_all(fd, s, strlen(s)); }

static char *reason(int status) {
    switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 501: return "Not Implemented";
    }
    return "Error";
}

static int send_head(int fd, int status, char *type, long length, int keep) {
    char head[512];
    snprintf(head, sizeof(head),
             "HTTP/1.1 %d %s\r\nServer: ncpu-httpd\r\nContent-Type: %s\r\nContent-Length: %ld\r\n"
             "Connection: %s\r\n\r\n",
             status, reason(status), type, length, keep ? "keep-alive" : "close");
    return send_str(fd, head);
}

static int send_error(int fd, int status, int head_only, int keep) {
    char body[256];
    snprintf(body, sizeof(body), "<html><body><h1>%d %s</h1></body></html>\n", status, reason(status));
    if (send_head(fd, status, "text/html", strlen(body), keep) < 0) return -1;
    return head_only ? 0 : send_str(fd, body);
}

static char *content_type(char *path) {
    char *dot = strrchr(path, '.');
    if (!dot) return "application/octet-stream";
    if (!strcmp(dot, ".html") || !strcmp(dot, ".htm")) return "text/html";
    if (!strcmp(dot, ".txt") || !strcmp(dot, ".c") || !strcmp(dot, ".h")) return "text/plain";
    if (!strcmp(dot, ".css")) return "text/css";
    if (!strcmp(dot, ".js")) return "application/javascript";
    if (!strcmp(dot, ".json")) return "application/json";
    if (!strcmp(dot, ".png")) return "image/png";
    if (!strcmp(dot, ".ppm")) return "image/x-portable-pixmap";
    return "application/octet-stream";
}

/* ---------------------------------------------------------------- files */

static int send_file(int fd, char *path, long size, int head_only, int keep) {
    char buf[4096];
    long n;
    int f = open(path, O_RDONLY);
    if (f < 0) return send_error(fd, 404, head_only, keep);
    if (send_head(fd, 200, content_type(path), size, keep) < 0 || head_only) {
        close(f);
        return head_only ? 0 : -1;
    }
    while ((n = read(f, buf, sizeof(buf))) > 0) {
        if (send_all(fd, buf, n) < 0) {
            close(f);
            return -1;
        }
    }
    close(f);
    return 0;
}

static int cmp_names(void *a, void *b) { return strcmp(*(char **)a, *(char **)b); }

/* an HTML page listing a directory's entries (subdirectories end with "/"), sorted by name */
static int send_listing(int fd, char *path, char *url, int head_only, int keep) {
    char *names[512];
    char entry[PATH_MAX_LEN * 2];
    char *body;
    long cap = 4096, len = 0;
    int n = 0, i, r;
    struct dirent *e;
    struct stat st;
    DIR *d = opendir(path);
    if (!d) return send_error(fd, 404, head_only, keep);
    while ((e = readdir(d)) != 0 && n < 512) {
        if (e->d_name[0] == '.') continue;
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof(char *), cmp_names);
    body = malloc(cap);
    len = snprintf(body, cap, "<html><body><h1>Index of %s</h1>\n<ul>\n", url);
    for (i = 0; i < n; i++) {
        snprintf(entry, sizeof(entry), "%s/%s", path, names[i]);
        int is_dir = stat(entry, &st) == 0 && S_ISDIR(st.st_mode);
        snprintf(entry, sizeof(entry), "<li><a href=\"%s%s\">%s%s</a></li>\n", names[i], is_dir ? "/" : "",
                 names[i], is_dir ? "/" : "");
        while (len + (long)strlen(entry) + 32 > cap) {
            cap *= 2;
            body = realloc(body, cap);
        }
        strcpy(body + len, entry);
        len += strlen(entry);
        free(names[i]);
    }
    strcpy(body + len, "</ul></body></html>\n");
    len += strlen(body + len);
    r = send_head(fd, 200, "text/html", len, keep);
    if (r == 0 && !head_only) r = send_all(fd, body, len);
    free(body);
    return r;
}

/* ---------------------------------------------------------------- requests */

static int header_says(char *headers, char *value) {
    char *p = headers;
    while (p && *p) {
        if (!strncmp(p, "Connection:", 11) || !strncmp(p, "connection:", 11)) {
            char *v = p + 11;
            while (*v == ' ') v++;
            int i = 0;
            while (value[i] && (v[i] | 32) == (value[i] | 32)) i++;
            if (!value[i]) return 1;
        }
        p = strstr(p, "\r\n");
        if (p) p += 2;
    }
    return 0;
}

/* answers one request (the text up to the blank line); returns 1 to keep the connection */
static int answer(int fd, char *text) {
    char method[16], url[PATH_MAX_LEN], version[16], path[PATH_MAX_LEN * 2];
    char *line_end = strstr(text, "\r\n");
    char *headers = line_end ? line_end + 2 : text + strlen(text);
    int head_only, keep, i, n = 0;
    struct stat st;
    if (line_end) *line_end = 0;
    /* "METHOD URL VERSION" */
    char *p = text, *q;
    for (i = 0; i < 3; i++) {
        q = strchr(p, ' ');
        if (i < 2 && !q) break;
        if (q) *q = 0;
        if (strlen(p) >= (i == 1 ? sizeof(url) : sizeof(method))) break;
        strcpy(i == 0 ? method : i == 1 ? url : version, p);
        n++;
        if (!q) break;
        p = q + 1;
    }
    if (n != 3 || strncmp(version, "HTTP/1.", 7) || url[0] != '/') {
        send_error(fd, 400, 0, 0);
        return 0;
    }
    keep = !strcmp(version, "HTTP/1.1") ? !header_says(headers, "close") : header_says(headers, "keep-alive");
    head_only = !strcmp(method, "HEAD");
    if (!head_only && strcmp(method, "GET")) return send_error(fd, 501, 0, keep) == 0 && keep;
    q = strchr(url, '?');
    if (q) *q = 0;
    if (strstr(url, "..")) return send_error(fd, 403, head_only, keep) == 0 && keep;
    snprintf(path, sizeof(path), "%s%s", root, url);
    if (stat(path, &st) < 0) return send_error(fd, 404, head_only, keep) == 0 && keep;
    if (S_ISDIR(st.st_mode)) {
        char index[PATH_MAX_LEN * 2 + 16];
        struct stat ist;
        snprintf(index, sizeof(index), "%s%sindex.html", path, path[strlen(path) - 1] == '/' ? "" : "/");
        if (stat(index, &ist) == 0 && S_ISREG(ist.st_mode))
            return send_file(fd, index, ist.st_size, head_only, keep) == 0 && keep;
        return send_listing(fd, path, url, head_only, keep) == 0 && keep;
    }
    return send_file(fd, path, st.st_size, head_only, keep) == 0 && keep;
}

/* serves requests on one connection until it closes or asks to */
static void serve(int fd) {
    long n;
    char *end;
    req_len = 0;
    for (;;) {
        req[req_len] = 0;
        end = strstr(req, "\r\n\r\n");
        if (end) {
            long used = end + 4 - req;
            end[2] = 0;
            if (!answer(fd, req)) break;
            memmove(req, req + used, req_len - used);
            req_len -= used;
            continue;
        }
        if (req_len >= REQ_MAX - 1) {
            send_error(fd, 400, 0, 0);
            break;
        }
        n = recv(fd, req + req_len, REQ_MAX - 1 - req_len, 0);
        if (n <= 0) break;
        req_len += n;
    }
    close(fd);
}

int main(int argc, char **argv) {
    int port = 8080, limit = -1, i, one = 1, s, c;
    struct sockaddr_in addr;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-p") && i + 1 < argc) port = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-n") && i + 1 < argc) limit = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) {
            if (strlen(argv[i + 1]) >= sizeof(root)) {
                fprintf(stderr, "httpd: -r: path too long\n");
                return 2;
            }
            strcpy(root, argv[++i]);
        } else {
            fprintf(stderr, "usage: httpd [-p PORT] [-r DIR] [-n CONNECTIONS]\n");
            return 2;
        }
    }
    s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) {
        fprintf(stderr, "httpd: socket failed\n");
        return 1;
    }
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_ANY);
    if (bind(s, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(s, 16) < 0) {
        fprintf(stderr, "httpd: cannot listen on port %d\n", port);
        return 1;
    }
    fprintf(stderr, "httpd: serving %s on port %d\n", root, port);
    while (limit < 0 || served < limit) {
        c = accept(s, 0, 0);
        if (c < 0) continue;
        served++;
        serve(c);
    }
    close(s);
    return 0;
}
