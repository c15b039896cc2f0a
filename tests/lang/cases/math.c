#include <stdio.h>
#include <math.h>
#include <stdlib.h>
int main() {
    printf("%.4f %.4f %.4f\n", sqrt(2.0), pow(2, 10), fabs(-1.5));
    printf("%.1f %.1f %.1f %.1f\n", floor(-1.5), ceil(-1.5), round(2.5), trunc(-2.7));
    printf("%d %ld %lld\n", abs(-7), labs(-8L), llabs(-9LL));
    printf("%.5f %.5f %.5f\n", log(10.0), log10(1000.0), exp(1.0));
    printf("%.5f %.5f %.5f\n", sin(1.0), cos(1.0), atan2(1.0, 1.0));
    printf("%.3f\n", fmod(7.5, 2.0));
    printf("%d\n", (int)pow(10, 2));
    return 0;
}
