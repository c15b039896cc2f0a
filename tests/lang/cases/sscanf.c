#include <stdio.h>
#include <string.h>
int main(void) {
    int a = 0, b = 0, n;
    double d = 0;
    char word[32] = "", rest[32] = "";
    long long big = 0;
    unsigned u = 0;
    char c = 0;
    n = sscanf("12 34", "%d %d", &a, &b);
    printf("%d: %d %d\n", n, a, b);
    n = sscanf("  -7,3.25 hello world", "%d,%lf %s %s", &a, &d, word, rest);
    printf("%d: %d %.2f [%s] [%s]\n", n, a, d, word, rest);
    n = sscanf("", "%d", &a);
    printf("empty: %d\n", n);
    n = sscanf("   ", "%d", &a);
    printf("spaces: %d\n", n);
    n = sscanf("abc", "%d", &a);
    printf("no match: %d %d\n", n, a);
    n = sscanf("42abc", "%d%s", &a, word);
    printf("%d: %d [%s]\n", n, a, word);
    n = sscanf("9223372036854775807 4000000000", "%lld %u", &big, &u);
    printf("%d: %lld %u\n", n, big, u);
    n = sscanf("x=5;y=6", "x=%d;y=%d", &a, &b);
    printf("%d: %d %d\n", n, a, b);
    n = sscanf("x=5;z=6", "x=%d;y=%d", &a, &b);
    printf("%d: %d %d\n", n, a, b);
    n = sscanf("Q rest", "%c", &c);
    printf("%d: %c\n", n, c);
    n = sscanf("0x1f 077", "%x %o", &a, &b);
    printf("%d: %d %d\n", n, a, b);
    n = sscanf("3 4", "%d", &a);
    printf("%d: %d\n", n, a);
    char line[64];
    strcpy(line, "10 20 30");
    int sum = 0, v, off = 0, used;
    while (sscanf(line + off, "%d%n", &v, &used) == 1) {
        sum += v;
        off += used;
    }
    printf("sum %d\n", sum);
    n = sscanf("1.5e3xyz", "%lf%s", &d, word);
    printf("%d: %.1f [%s]\n", n, d, word);
    n = sscanf("abc123", "%[a-z]%d", word, &a);
    printf("%d: [%s] %d\n", n, word, a);
    return 0;
}
