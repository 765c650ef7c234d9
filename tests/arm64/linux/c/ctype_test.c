#include <stdio.h>
#include <ctype.h>
int main(void) { for (int c = 0; c < 128; c += 1) { int m = (isalpha(c)?1:0)|(isdigit(c)?2:0)|(isspace(c)?4:0)|(ispunct(c)?8:0)|(isupper(c)?16:0)|(islower(c)?32:0)|(isxdigit(c)?64:0)|(iscntrl(c)?128:0)|(isprint(c)?256:0);
  printf("%02x:%03x%c", c, m, c % 8 == 7 ? '\n' : ' '); }
  const char *s = "Hello, World 123!"; for (const char *p = s; *p; p++) putchar(toupper((unsigned char)*p)); putchar('\n'); for (const char *p = s; *p; p++) putchar(tolower((unsigned char)*p)); putchar('\n'); return 0; }
