#include <stdio.h>
int main() {
    printf("%5d|%-5d|%05d|%+d\n", 42, 42, 42, 42);
    printf("%x %X %o %c %%\n", 255, 255, 8, 65);
    printf("%8.3f|%-8.2f|%.0f\n", 3.14159, 2.5, 2.5);
    printf("%s|%10s|%-10s|\n", "a", "b", "c");
    printf("%ld %lu\n", -5L, 5UL);
    printf("%lld\n", 10);
    return 0;
}
