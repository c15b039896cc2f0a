#include <stdio.h>
int main() {
    int i = 5, a[3] = {0, 0, 0};
    int j = i++ + ++i;
    printf("%d %d\n", i, j);
    a[1]++; ++a[1]; a[2] -= 3; a[0] |= 6; a[0] >>= 1;
    printf("%d %d %d\n", a[0], a[1], a[2]);
    char c = 127; c++;
    unsigned char uc = 0; uc--;
    printf("%d %d\n", c, uc);
    double d = 1.5; d++; d *= 2;
    printf("%.1f\n", d);
    int k = 10; k /= 3; k *= 2.5; k %= 4;
    printf("%d\n", k);
    int x, y, z; x = y = z = 7;
    printf("%d %d %d\n", x, y, z);
    return 0;
}
