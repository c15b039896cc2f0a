#include <stdio.h>
int main() {
    int x;
    int a[3];
    int i;
    for (i = 0; i < 3; i++) { int t; t += i; printf("%d ", t); }
    printf("%d %d\n", x, a[1]);
    return 0;
}
