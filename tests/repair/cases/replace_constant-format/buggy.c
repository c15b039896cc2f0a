#include <stdio.h>
int main(void) {
    long long n;
    scanf("%lld", &n);
    long long sum = n * (n + 1) / 2;
    printf("%d\n", sum);
    return 0;
}
