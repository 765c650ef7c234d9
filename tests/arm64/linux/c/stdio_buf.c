#include <stdio.h>
#include <unistd.h>
int main(void) { printf("buffered 1 "); write(1, "[raw write]\n", 12); printf("buffered 2\n"); fflush(stdout);
  fprintf(stderr, "stderr unbuffered\n"); setvbuf(stdout, NULL, _IONBF, 0); printf("unbuffered A\n"); write(1, "raw B\n", 6); printf("unbuffered C\n");
  char big[20000]; for (int i = 0; i < 20000; i++) big[i] = 'a' + i % 26; big[19999] = '\n'; fwrite(big, 1, sizeof big, stdout); return 0; }
