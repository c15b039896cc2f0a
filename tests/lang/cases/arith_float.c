#include <stdio.h>
int main(void) {
    double d = 1.0 / 3.0;
    float f = 1.0f / 3.0f;
    printf("%.20f\n%.20f\n", d, f);
    printf("%f %e %g\n", d * 1e6, d, d * 1e-7);
    float g = 16777217;
    printf("%.1f\n", g);
    printf("%d %d\n", (int)3.99, (int)-3.99);
    printf("%d\n", (int)1e10);
    printf("%lld\n", (long long)-1e30);
    double z = 0.0;
    printf("%f %f\n", 1.0 / z, -1.0 / z);
    int i = 7;
    printf("%f\n", i / 2 * 2.0);
    printf("%.2f\n", 5 / 2.0);
    printf("%d\n", 0.1 + 0.2 == 0.3);
    return 0;
}
