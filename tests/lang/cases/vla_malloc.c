#include <stdio.h>
#include <stdlib.h>
int main() {
    int n, i;
    scanf("%d", &n);
    int a[n];
    for (i = 0; i < n; i++) a[i] = i * 2;
    int *b = (int *)malloc(n * sizeof(int));
    long long *c = calloc(n, sizeof(long long));
    for (i = 0; i < n; i++) b[i] = a[n - 1 - i] + (int)c[i];
    printf("%d %d\n", b[0], b[n - 1]);
    free(b);
    return 0;
}
