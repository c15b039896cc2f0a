#include <stdio.h>
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
long long fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
int depth(int n) { if (n == 0) return 0; return 1 + depth(n - 1); }
int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }
int main() {
    printf("%d %lld %d %d\n", fib(20), fact(20), depth(50000), gcd(84, 36));
    return 0;
}
