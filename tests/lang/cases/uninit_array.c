// A local array whose elements are written only in part: reading an unwritten one stops.
#include <stdio.h>
int main(void) {
    int d[5], i, s = 0;
    for (i = 0; i < 4; i++)
        d[i] = i + 1;
    for (i = 0; i < 5; i++) {
        s += d[i];
        printf("%d\n", s);
    }
    return 0;
}
