/* /proc/self/maps and /proc/PID/maps as the program reads them: an anonymous
   region with its middle page made read-only (mprotect splits it), a private
   read-only file mapping at an offset, a shared writable one; the stack's name.  Printed
   relative to each region (addresses differ between machines), each line
   clipped to the region (a kernel may merge a region with a neighbour). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PG 4096
static char text[1 << 16], again[1 << 16];

static int slurp(const char *path, char *buf) {   /* read(2) only: no allocation changes the maps */
    int fd = open(path, O_RDONLY), n = 0, r;
    if (fd < 0) return -1;
    while ((r = read(fd, buf + n, (int)sizeof text - 1 - n)) > 0) n += r;
    close(fd);
    buf[n] = 0;
    return n;
}

static void show(const char *label, char *base, unsigned long len) {
    unsigned long lo = (unsigned long)base, hi = lo + len;
    for (char *line = text; *line; ) {
        char *end = strchr(line, '\n');
        if (end) *end = 0;
        unsigned long s, e, off, ino; char perms[8], dev[16]; int used = 0;
        if (sscanf(line, "%lx-%lx %7s %lx %15s %lu %n", &s, &e, perms, &off, dev, &ino, &used) >= 6 && s < hi && e > lo) {
            const char *path = used ? line + used : "";
            const char *name = strrchr(path, '/');
            unsigned long a = s > lo ? s : lo, b = e < hi ? e : hi;
            printf("%s +%lu pages %lu %s %s off=%lu %s\n", label, (a - lo) / PG, (b - a) / PG, perms,
                   ino ? "file" : "anon", ino ? (off + (a - s)) / PG : 0, name ? name + 1 : path);
        }
        if (!end) break;
        *end = '\n';
        line = end + 1;
    }
}

int main(void) {
    int fd = open("maps_data.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
    char page[PG];
    memset(page, 'm', sizeof page);
    for (int i = 0; i < 4; i++) write(fd, page, sizeof page);

    char *anon = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    anon[0] = 1;
    mprotect(anon + PG, PG, PROT_READ);
    char *priv = mmap(NULL, 2 * PG, PROT_READ, MAP_PRIVATE, fd, PG);
    char *shared = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (anon == MAP_FAILED || priv == MAP_FAILED || shared == MAP_FAILED) { puts("mmap failed"); return 1; }

    if (slurp("/proc/self/maps", text) <= 0) { puts("no /proc/self/maps"); return 1; }
    show("anon", anon, 4 * PG);
    show("private", priv, 2 * PG);
    show("shared", shared, PG);

    munmap(anon + 3 * PG, PG);                      /* the tail goes away */
    slurp("/proc/self/maps", text);
    show("after munmap", anon, 4 * PG);

    char path[64];
    snprintf(path, sizeof path, "/proc/%d/maps", (int)getpid());
    slurp(path, again);
    printf("/proc/PID/maps same as /proc/self/maps: %s\n", strcmp(text, again) == 0 ? "yes" : "no");
    unsigned long here = (unsigned long)&fd;        /* a local: the main thread's stack */
    for (char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        unsigned long s, e;
        if (sscanf(line, "%lx-%lx", &s, &e) == 2 && s <= here && here < e) {
            char *nl = strchr(line, '\n');
            printf("the stack's line ends with [stack]: %s\n",
                   nl && nl - line >= 7 && memcmp(nl - 7, "[stack]", 7) == 0 ? "yes" : "no");
        }
    }
    printf("/proc/999999/maps exists: %s\n", access("/proc/999999/maps", F_OK) == 0 ? "yes" : "no");
    pid_t child = fork();
    if (child == 0) _exit(0);
    waitpid(child, NULL, 0);                          /* reaped: its /proc/PID is gone */
    snprintf(path, sizeof path, "/proc/%d/maps", (int)child);
    printf("an ended child's maps exists: %s\n", access(path, F_OK) == 0 ? "yes" : "no");
    close(fd);
    return 0;
}
