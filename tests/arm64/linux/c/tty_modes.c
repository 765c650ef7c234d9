/* Terminal modes: prints what it sees of its terminal, then (by argv[1]) puts it in raw or
 * cbreak mode and ends badly: "crash" (SIGSEGV), "spin" (runs until the budget ends), "wait"
 * (cbreak with ISIG: blocks reading until Ctrl-C), "key" (raw: reads one key and echoes its code). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

int main(int argc, char **argv) {
    struct winsize ws;
    struct termios t;
    setvbuf(stdout, NULL, _IONBF, 0);
    printf("isatty %d\n", isatty(0));
    if (ioctl(0, TIOCGWINSZ, &ws) == 0) printf("winsize %d x %d\n", ws.ws_row, ws.ws_col);
    printf("foreground is my group: %d\n", tcgetpgrp(0) == getpgrp());
    int dev_tty = open("/dev/tty", O_RDWR);
    printf("/dev/tty: isatty %d\n", dev_tty >= 0 && isatty(dev_tty));
    if (dev_tty >= 0) {
        write(dev_tty, "written to /dev/tty\n", 20);
        close(dev_tty);
    }
    tcgetattr(0, &t);
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "wait")) {
        t.c_lflag &= ~(ICANON | ECHO);
        tcsetattr(0, TCSANOW, &t);
        printf("cbreak, waiting\n");
        char c;
        read(0, &c, 1);
        printf("read returned\n");
        return 0;
    }
    cfmakeraw(&t);
    tcsetattr(0, TCSAFLUSH, &t);
    printf("raw\r\n");
    if (!strcmp(mode, "crash")) *(volatile int *)0 = 1;
    if (!strcmp(mode, "spin")) for (volatile unsigned long i = 0;; i++) {}
    if (!strcmp(mode, "key")) {
        char c;
        read(0, &c, 1);
        printf("key %d\r\n", c);
    }
    return 0;
}
