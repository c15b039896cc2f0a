#include <stdio.h>
int main() {
    int i = -1;
    unsigned u = 1;
    long long l = -1;
    printf("%d\n", i < u);
    printf("%d\n", l < u);
    printf("%lld\n", i + u + 0LL);
    double d = 4000000000.0;
    unsigned ud = d;
    printf("%u\n", ud);
    float f = 0.1f;
    printf("%d\n", f == 0.1);
    printf("%.10f\n", f * 3);
    char c = 'A' + 2;
    printf("%c %d\n", c, c + 1);
    printf("%d\n", 7 / 2 * 2);
    printf("%lld\n", 1LL << 40);
    printf("%d\n", (int)(unsigned char)-1);
    long long big = 3000000000LL;
    int trunc = big;
    printf("%d\n", trunc);
    return 0;
}
