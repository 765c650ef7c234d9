#include <stdio.h>
enum state { START, IN_NUM, IN_WORD, DONE };
int main(void) {
    char *s = "abc 123 de 4 5 xyz!"; enum state st = START; int nums = 0, words = 0;
    for (;; s++) {
        int c = *s;
        switch (st) {
        case START: if (c >= '0' && c <= '9') { st = IN_NUM; nums++; } else if (c >= 'a' && c <= 'z') { st = IN_WORD; words++; } else if (!c) st = DONE; break;
        case IN_NUM: if (!(c >= '0' && c <= '9')) st = c ? START : DONE; break;
        case IN_WORD: if (!(c >= 'a' && c <= 'z')) st = c ? START : DONE; break;
        default: break;
        }
        if (st == DONE) break;
    }
    printf("nums %d words %d\n", nums, words);
    return 0;
}
