#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>
int main(void) {
    char buf[64]; int fd, n;
    fd = open("ncc_test_file.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    write(fd, "line one\nline two\n", 18);
    close(fd);
    fd = open("ncc_test_file.txt", O_RDONLY);
    n = read(fd, buf, sizeof(buf) - 1);
    buf[n] = 0;
    printf("read %d bytes: %s", n, buf);
    lseek(fd, 5, SEEK_SET);
    n = read(fd, buf, 3); buf[n] = 0;
    printf("after seek: %s\n", buf);
    close(fd);
    unlink("ncc_test_file.txt");
    printf("reopen: %d\n", open("ncc_test_file.txt", O_RDONLY) < 0);
    return 0;
}
