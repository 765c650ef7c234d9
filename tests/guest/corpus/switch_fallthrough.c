#include <stdio.h>
int classify(int c) {
    int score = 0;
    switch (c) {
    case 0: score += 1;
    case 1: score += 10;
    case 2: score += 100; break;
    case 3:
    case 4: score = -1; break;
    default: score = 7;
    case 9: score *= 2;
    }
    return score;
}
int main(void) { int i; for (i = -1; i < 11; i++) printf("%d -> %d\n", i, classify(i)); return 0; }
