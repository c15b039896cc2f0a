// Unsequenced `=`: gcc evaluates the right side before the left side's address, except
// that the register operands (locals whose address is never taken) of the right side's
// last operation or call are read after it. Programs in the corpus depend on this.
#include <stdio.h>
#include <math.h>
int a[10];
double f[10];
int g(int x) { return x; }
void reset(void) { a[0] = 10; a[1] = 20; a[2] = 30; a[3] = 40; }
int main(void) {
    int i;
    i = 1; reset(); a[++i] = a[i - 1] + 5;
    printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]);
    i = 1; reset(); a[++i] = i + 100;
    printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]);
    i = 1; reset(); a[++i] = i * 2;
    printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]);
    i = 1; reset(); a[++i] = g(i);
    printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]);
    i = 1; reset(); a[i++] = a[i] + 5;
    printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]);
    i = 1; reset(); a[i] = a[i++] + 5;
    printf("i=%d %d %d %d %d\n", i, a[0], a[1], a[2], a[3]);
    i = 1; f[0] = 10; f[1] = 20; f[2] = 30;
    f[++i] = f[i - 1] + log(i);
    printf("%g %g %g\n", f[0], f[1], f[2]);
    for (i = 1; i <= 4; f[++i] = f[i - 1] + log(i));
    printf("%.6f %.6f\n", f[4], f[5]);
    return 0;
}
