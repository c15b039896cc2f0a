#include <stdio.h>
int next(int n) { if (n % 7 == 0) return n; next(n + 1); }
int main() { printf("%d\n", next(15)); return 0; }
