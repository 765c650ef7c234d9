#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <stdlib.h>
#include <sys/wait.h>
int main(int argc, char **argv) { if (argc > 1 && !strcmp(argv[1], "child")) { printf("child argc %d last [%s] env %s\n", argc, argv[argc - 1], getenv("XVAR") ? getenv("XVAR") : "-"); return 5; }
  pid_t p = fork(); if (p == 0) { char *av[] = {argv[0], "child", "x y", NULL}; char *ev[] = {"XVAR=42", NULL}; execve("/proc/self/exe", av, ev); perror("execve"); _exit(127); }
  int st; waitpid(p, &st, 0); printf("parent saw %d\n", WEXITSTATUS(st));
  char *bad[] = {"nope", NULL}; printf("exec missing: %d\n", execve("/definitely/not/here", bad, bad)); return 0; }
