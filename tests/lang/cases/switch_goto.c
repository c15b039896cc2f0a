#include <stdio.h>
int f(int x) {
    int r = 0;
    switch (x) {
    case 1: r += 1;
    case 2: r += 2; break;
    default: r = -1; break;
    case 5: { r = 50; break; }
    }
    return r;
}
int main() {
    int i;
    for (i = 0; i < 6; i++) printf("%d ", f(i));
    printf("\n");
    i = 0;
again:
    i++;
    if (i < 4) goto again;
    printf("%d\n", i);
    switch (i) { case 4: printf("four\n"); }
    switch (i) { case 1: printf("one\n"); }
    return 0;
}
