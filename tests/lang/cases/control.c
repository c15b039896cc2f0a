#include <stdio.h>
int main() {
    int i, s = 0;
    for (i = 0; i < 10; i++) {
        if (i == 3) continue;
        if (i == 8) break;
        s += i;
    }
    printf("%d\n", s);
    i = 0;
    while (i < 5) i += 2;
    printf("%d\n", i);
    do { i--; } while (i > 0);
    printf("%d\n", i);
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++) {
            if (j == k) continue;
            printf("%d%d ", k, j);
        }
    printf("\n");
    int x = 5;
    printf("%s\n", x > 3 ? "big" : "small");
    printf("%d\n", (x > 3) && (x < 10) || 0);
    int n = 0;
    if (n != 0 && 10 / n > 1) printf("no\n"); else printf("short-circuit\n");
    return 0;
}
