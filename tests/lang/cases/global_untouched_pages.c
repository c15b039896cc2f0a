#include <stdio.h>
/* 400 MB of zero-initialised globals, as competitive programs declare: only the pages
   written count against the memory budget, as a gcc-built process commits them. */
long long table[50000000];
int main() {
    table[0] = 7;
    table[49999999] = 35;
    printf("%lld %lld\n", table[0] + table[49999999], table[12345678]);
    return 0;
}
