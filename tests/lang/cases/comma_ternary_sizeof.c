#include <stdio.h>
int main() {
    int a, b;
    for (a = 0, b = 10; a < b; a++, b--) ;
    printf("%d %d\n", a, b);
    printf("%d %d %d %d\n", (int)sizeof(int), (int)sizeof(long long), (int)sizeof(char), (int)sizeof(double));
    int x = (a++, b++, a + b);
    printf("%d\n", x);
    double r = a > 3 ? 1 : 2.5;
    printf("%.1f\n", r);
    return 0;
}
