#include <stdio.h>
int main() {
    int a, n = 0, s = 0;
    while (scanf("%d", &a) == 1) { s += a; n++; }
    printf("%d %d %d\n", n, s, scanf("%d", &a));
    return 0;
}
