#include <stdio.h>
#include <string.h>
int g[5];
int m[3][4];
int init[] = {3, 1, 4, 1, 5};
int sum(int a[], int n) { int s = 0, i; for (i = 0; i < n; i++) s += a[i]; return s; }
void fill(int a[][4], int r) { int i, j; for (i = 0; i < r; i++) for (j = 0; j < 4; j++) a[i][j] = i * 10 + j; }
int main() {
    int a[5] = {1, 2};
    int i;
    for (i = 0; i < 5; i++) g[i] = i * i;
    printf("%d %d %d\n", sum(g, 5), sum(a, 5), sum(init, 5));
    fill(m, 3);
    printf("%d %d %d\n", m[0][3], m[2][1], m[1][4]);
    memset(a, 0, sizeof(a));
    printf("%d %d\n", a[1], (int)sizeof(m));
    int *p = g;
    p++;
    printf("%d %d %d\n", *p, p[2], *(g + 4));
    printf("%d\n", (int)(&g[4] - p));
    int b[3];
    memset(b, -1, sizeof b);
    printf("%d\n", b[2]);
    return 0;
}
