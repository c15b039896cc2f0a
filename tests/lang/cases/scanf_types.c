#include <stdio.h>
int main() {
    int i; long long l; double d; float f; unsigned u; char c; long lo;
    scanf("%d %lld %lf %f %u %c %ld", &i, &l, &d, &f, &u, &c, &lo);
    printf("%d %lld %.3f %.3f %u %c %ld\n", i, l, d, f, u, c, lo);
    printf("%I64d\n", l);
    return 0;
}
