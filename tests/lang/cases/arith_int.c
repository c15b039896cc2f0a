#include <stdio.h>
int main(void) {
    int a = 2147483647, b = -7, c = 3;
    printf("%d %d %d %d\n", a + 1, b / c, b % c, -b / c);
    unsigned u = 0;
    u = u - 1;
    printf("%u %d\n", u, (int)u);
    long long x = 9223372036854775807LL;
    printf("%lld %lld\n", x + 1, x / -3);
    unsigned long long y = 0;
    printf("%llu\n", y - 1);
    printf("%d %d %d\n", 1 << 31, -16 >> 2, 7 & 3 | 8 ^ 1);
    printf("%u\n", 0xffffffffu >> 4);
    int sh = 33;
    printf("%d\n", 1 << sh);
    printf("%d %d\n", -1 < 0u, (unsigned char)300);
    char ch = 200;
    short s = 70000;
    printf("%d %d\n", ch, s);
    printf("%d\n", ~5);
    printf("%lld\n", (long long)a * a);
    printf("%d\n", a * a);
    return 0;
}
