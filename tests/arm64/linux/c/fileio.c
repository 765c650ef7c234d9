#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
static int cmp(const void *a, const void *b) { return strcmp(*(char **)a, *(char **)b); }
int main(void) {
    mkdir("work", 0755);
    FILE *f = fopen("work/data.txt", "w"); if (!f) { perror("fopen"); return 1; }
    for (int i = 0; i < 1000; i++) fprintf(f, "line %d %x\n", i, i * i);
    fclose(f);
    struct stat st; stat("work/data.txt", &st); printf("size %lld reg %d\n", (long long)st.st_size, S_ISREG(st.st_mode));
    f = fopen("work/data.txt", "r"); char line[100]; int n = 0; long sum = 0;
    while (fgets(line, sizeof line, f)) { n++; sum += strlen(line); }
    fseek(f, 100, SEEK_SET); fgets(line, sizeof line, f); printf("lines %d sum %ld at100 [%s] tell %ld\n", n, sum, strtok(line, "\n"), ftell(f));
    fclose(f);
    int fd = open("work/bin.dat", O_CREAT | O_RDWR | O_TRUNC, 0644);
    unsigned char b[4096]; for (int i = 0; i < 4096; i++) b[i] = (unsigned char)(i * 13);
    write(fd, b, 4096); lseek(fd, 1000, SEEK_SET); unsigned char c[8]; read(fd, c, 8);
    printf("pread %d %d %lld\n", c[0], c[7], (long long)lseek(fd, 0, SEEK_END)); 
    pwrite(fd, "ZZ", 2, 10); pread(fd, c, 4, 8); printf("%d %c %c %d\n", c[0], c[2], c[3], c[1]);
    ftruncate(fd, 100); fstat(fd, &st); printf("trunc %lld\n", (long long)st.st_size); close(fd);
    rename("work/bin.dat", "work/renamed.dat");
    printf("old %d new %d\n", access("work/bin.dat", F_OK), access("work/renamed.dat", F_OK));
    symlink("renamed.dat", "work/link"); char tgt[64] = {0}; readlink("work/link", tgt, 63); printf("link -> %s\n", tgt);
    lstat("work/link", &st); printf("islnk %d\n", S_ISLNK(st.st_mode));
    mkdir("work/sub", 0700); close(open("work/sub/x", O_CREAT | O_WRONLY, 0600));
    DIR *d = opendir("work"); struct dirent *e; char *names[20]; int k = 0;
    while ((e = readdir(d))) names[k++] = strdup(e->d_name); closedir(d);
    qsort(names, k, sizeof names[0], cmp); for (int i = 0; i < k; i++) printf("%s ", names[i]); printf("\n");
    printf("rmdir nonempty %d errno %d\n", rmdir("work/sub"), errno == ENOTEMPTY);
    unlink("work/sub/x"); printf("rmdir %d\n", rmdir("work/sub"));
    printf("open missing %d errno %d\n", open("nope/x", O_RDONLY), errno);
    char cwd[256]; chdir("work"); getcwd(cwd, sizeof cwd); printf("in work: %s\n", strrchr(cwd, '/'));
    f = fopen("renamed.dat", "rb"); printf("fopen rel %d\n", f != NULL); fclose(f);
    unlink("link"); unlink("renamed.dat"); unlink("data.txt"); chdir(".."); printf("rmdir work %d\n", rmdir("work"));
    return 0;
}
