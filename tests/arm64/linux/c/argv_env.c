#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv, char **envp) {
    printf("argc=%d\n", argc);
    for (int i = 1; i < argc; i++) printf("argv[%d]=[%s]\n", i, argv[i]);
    printf("FOO=%s\n", getenv("FOO") ? getenv("FOO") : "(null)");
    printf("MISSING=%s\n", getenv("NCPU_MISSING") ? "set" : "(null)");
    setenv("NEWVAR", "value1", 1); setenv("NEWVAR", "value2", 0); printf("NEWVAR=%s\n", getenv("NEWVAR"));
    unsetenv("NEWVAR"); printf("after unset %p\n", (void *)getenv("NEWVAR"));
    int n = 0; for (char **e = envp; *e; e++) if (strncmp(*e, "FOO", 3) == 0) n++;
    printf("envp FOO entries %d\n", n);
    return argc;
}
