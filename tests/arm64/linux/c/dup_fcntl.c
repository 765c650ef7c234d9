#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>
int main(void) { int fd = open("dup.txt", O_CREAT | O_RDWR | O_TRUNC, 0644); int d = dup(fd); write(fd, "hello ", 6); write(d, "world\n", 6);
  printf("shared offset %lld\n", (long long)lseek(fd, 0, SEEK_CUR)); int d2 = fcntl(fd, F_DUPFD, 10); printf("dupfd >=10: %d\n", d2 >= 10);
  printf("cloexec %d ", fcntl(fd, F_GETFD)); fcntl(fd, F_SETFD, FD_CLOEXEC); printf("%d\n", fcntl(fd, F_GETFD));
  printf("flags rdwr %d\n", (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR); close(fd); close(d);
  int a = open("dup.txt", O_WRONLY | O_APPEND); write(a, "more\n", 5); close(a); char buf[64] = {0}; int r = open("dup.txt", O_RDONLY); read(r, buf, 63); printf("%s", buf);
  dup2(r, 5); lseek(5, 0, SEEK_SET); memset(buf, 0, 64); read(r, buf, 5); printf("[%s]\n", buf); printf("bad fd %d\n", close(77)); close(d2); unlink("dup.txt"); return 0; }
