#include <stdio.h>
int main(void) {
    int n, a, total = 0;
    double x;
    char name[16];
    if (fscanf(stdin, "%d", &n) != 1)
        return 1;
    for (int i = 0; i < n; i++) {
        fscanf(stdin, "%d", &a);
        total += a;
    }
    printf("total %d\n", total);
    int r = fscanf(stdin, "%lf %15s", &x, name);
    printf("%d: %.3f %s\n", r, x, name);
    r = scanf("%d", &a);
    printf("mixed scanf: %d %d\n", r, a);
    r = fscanf(stdin, "%d", &a);
    printf("at end: %d\n", r);
    return 0;
}
