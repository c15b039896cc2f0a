#include <stdio.h>
void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
void inc(long long *p) { (*p)++; *p += 10; }
int main() {
    int x = 1, y = 2;
    swap(&x, &y);
    long long z = 5;
    inc(&z);
    printf("%d %d %lld\n", x, y, z);
    int a[4] = {9, 8, 7, 6};
    int *p = a + 3, *q = &a[0];
    while (p > q) { swap(p, q); p--; q++; }
    printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]);
    char s[] = "hello";
    char *c = s;
    int n = 0;
    while (*c++) n++;
    printf("%d %d\n", n, (int)sizeof(s));
    return 0;
}
